// A tiny rule-based spa receptionist shared by the three example agents. Real agents call an LLM;
// this one is deterministic so the example shows the wire format and nothing else.
export function receptionist(body) {
  const text = String(body.message).toLowerCase();
  const slot = /\b(10:00|14:00)\b/.exec(text)?.[1];
  if (slot) {
    return { reply: `Booked for Saturday at ${slot}: your booking id is BK-77.`, tool_calls: [{ name: 'create_booking', args: { slot } }], state: 'booked' };
  }
  if (/massage|book/.test(text)) {
    return { reply: 'We have 10:00 and 14:00 free on Saturday. Which one would you like?', tool_calls: [{ name: 'check_availability', args: { day: 'saturday' } }], state: 'offering' };
  }
  return { reply: `Karibu! This is turn ${body.turn}; how can I help?`, state: 'greeting' };
}
