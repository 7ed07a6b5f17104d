"""booked_slot_offered: a booking is only made for a time the availability tool offered.

Parley gives this program one JSON document on stdin (the scenario, the transcript, every tool call
with what the tool returned, the expectation's params) and reads one JSON value from stdout:
{"score": 0..1, "passed": bool, "reason": str, "messages": [{"index", "score", "reason"}]}.
Standard library only.
"""

import json
import sys

BOOKING_TOOLS = {"create_booking", "reschedule_booking"}


def offered_times(result):
    """The times an availability result offers, by date: its slots and its next_available entries."""
    offered = {}
    date = result.get("date")
    for slot in result.get("slots") or []:
        offered.setdefault(date, set()).add(slot)
    for entry in result.get("next_available") or []:
        offered.setdefault(entry.get("date"), set()).add(entry.get("time"))
    return offered


def main():
    document = json.load(sys.stdin)
    offered = {}
    messages = []
    for call in document["tool_calls"]:
        if call["name"] == "check_availability" and "result" in call:
            for date, times in offered_times(json.loads(call["result"])).items():
                offered.setdefault(date, set()).update(times)
        if call["name"] not in BOOKING_TOOLS:
            continue
        args = call["args"]
        # create_booking names date and time; reschedule_booking new_date and new_time.
        date, time = args.get("date", args.get("new_date")), args.get("time", args.get("new_time"))
        if time in offered.get(date, set()):
            messages.append({"index": call["message_index"], "score": 1, "reason": f"{call['name']} for {date} {time}, an offered slot"})
        else:
            shown = ", ".join(sorted(offered.get(date, set()))) or "none"
            messages.append({"index": call["message_index"], "score": 0, "reason": f"{call['name']} for {date} {time}, not offered (offered that day: {shown})"})
    if not messages:
        answer = {"score": 1, "passed": True, "reason": "no booking was made or moved"}
    else:
        wrong = [message for message in messages if message["score"] == 0]
        answer = {
            "score": (len(messages) - len(wrong)) / len(messages),
            "passed": not wrong,
            "reason": "; ".join(message["reason"] for message in (wrong or messages)),
            "messages": messages,
        }
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
