// The booking number the customer is told must be the one the booking tool returned: a model that
// invents or misremembers "BK-1075" sends the customer to the front desk with a number that does
// not exist. Checked per message: each assistant message that names a booking number gets a score.
import { defineMetric, type CodeMetricAnswer } from 'parley-eval';

const BOOKING_TOOLS = new Set(['create_booking', 'reschedule_booking']);

export default defineMetric({
  evaluate(input): CodeMetricAnswer {
    const pattern = new RegExp(String(input.params['pattern'] ?? 'BK-\\d{4}'), 'g');
    const returned = new Set<string>();
    const messages: NonNullable<CodeMetricAnswer['messages']> = [];
    input.transcript.turns.forEach((turn, index) => {
      if (turn.role === 'tool' && BOOKING_TOOLS.has(turn.tool_name ?? '')) {
        for (const reference of turn.content.match(pattern) ?? []) returned.add(reference);
      }
      if (turn.role !== 'assistant') return;
      const stated = turn.content.match(pattern) ?? [];
      if (stated.length === 0) return;
      const unknown = stated.filter((reference) => !returned.has(reference));
      messages.push(
        unknown.length === 0
          ? { index, score: 1, reason: `states ${stated.join(', ')}, as the booking tool returned` }
          : { index, score: 0, reason: `states ${unknown.join(', ')}, which no booking tool returned (${[...returned].join(', ') || 'none yet'})` },
      );
    });
    const wrong = messages.filter((message) => message.score === 0);
    if (wrong.length > 0) return { score: 0, passed: false, reason: wrong.map((message) => message.reason).join('; '), messages };
    if (returned.size > 0 && messages.length === 0) {
      return { score: 0, passed: false, reason: `the booking tool returned ${[...returned].join(', ')} but the assistant never told the customer`, messages };
    }
    if (returned.size === 0) return { score: 1, passed: true, reason: 'no booking was made or moved', messages };
    return { score: 1, passed: true, reason: `the customer was told ${[...returned].join(', ')}`, messages };
  },
});
