import * as z from 'zod';
import { assistantMessagesOf, describeMessage, describeScope, emptyTurnReason, locationOf } from './assistant-messages.js';
import { defineMetric } from './define-metric.js';
import type { Metric, MetricIdentity } from './metric.js';
import { verdictResult } from './metric-result.js';
import { countOf, listForReason } from './reason-list.js';
import { normaliseText } from './text-normalisation.js';

const SignalSchema = z.string().refine((signal) => normaliseText(signal) !== '', 'a signal must contain visible text');

const ContentSignalsParamsSchema = z
  .strictObject({
    required: z.array(SignalSchema).optional(),
    forbidden: z.array(SignalSchema).optional(),
    turn: z.number().int().positive().optional(),
  })
  .refine((params) => (params.required?.length ?? 0) + (params.forbidden?.length ?? 0) > 0, {
    message: 'content_signals needs at least one required or forbidden string',
  });
export type ContentSignalsParams = z.infer<typeof ContentSignalsParamsSchema>;

const IDENTITY: MetricIdentity = { name: 'content_signals', version: '1.0.0' };

/**
 * `content_signals` (docs/file-formats.md, "Expectations and the deterministic metrics"): required
 * strings must appear in some assistant message and forbidden strings in none, compared
 * case-insensitively after Unicode normalisation. Each signal must sit inside one message: text
 * spanning two messages does not count.
 */
export const contentSignalsMetric: Metric<ContentSignalsParams> = defineMetric({
  ...IDENTITY,
  kind: 'deterministic',
  params: ContentSignalsParamsSchema,
  defaultThreshold: null,
  evaluate(input, params) {
    const messages = assistantMessagesOf(input.transcript, params.turn);
    if (params.turn !== undefined && messages.length === 0) {
      return verdictResult(IDENTITY, false, emptyTurnReason(input.transcript, params.turn), { missing: params.required ?? [], found_forbidden: [] });
    }
    const texts = messages.map((message) => ({ message, text: normaliseText(message.content) }));
    const required = params.required ?? [];
    const forbidden = params.forbidden ?? [];
    const missing = required.filter((signal) => !texts.some(({ text }) => text.includes(normaliseText(signal))));
    const foundForbidden = forbidden.flatMap((signal) =>
      texts.filter(({ text }) => text.includes(normaliseText(signal))).map(({ message }) => ({ signal, message })),
    );
    const details = {
      missing,
      found_forbidden: foundForbidden.map(({ signal, message }) => ({ signal, ...locationOf(message) })),
      messages_checked: messages.length,
    };

    const problems: string[] = [];
    if (missing.length > 0) {
      const signals = listForReason(missing.map(quote));
      problems.push(
        messages.length === 0
          ? `required ${signals} missing: there is no assistant message`
          : `required ${signals} missing from ${describeScope(params.turn)}`,
      );
    }
    const firstForbidden = foundForbidden[0];
    if (firstForbidden !== undefined) {
      const more = foundForbidden.length > 1 ? ` (and ${foundForbidden.length - 1} more)` : '';
      problems.push(`forbidden ${quote(firstForbidden.signal)} found in ${describeMessage(firstForbidden.message)}${more}`);
    }
    if (problems.length > 0) return verdictResult(IDENTITY, false, problems.join('; '), details);
    return verdictResult(IDENTITY, true, passReason(required.length, forbidden.length, messages.length, params.turn), details);
  },
});

function passReason(required: number, forbidden: number, checked: number, turn: number | undefined): string {
  const parts: string[] = [];
  if (required > 0) parts.push(required === 1 ? 'the required string is present' : `all ${required} required strings are present`);
  if (forbidden > 0) parts.push(forbidden === 1 ? 'the forbidden string is absent' : `none of ${forbidden} forbidden strings appears`);
  const scope = turn === undefined ? countOf(checked, 'assistant message') : `${countOf(checked, 'assistant message')} of turn ${turn}`;
  return `${parts.join(' and ')} in ${scope}`;
}

function quote(text: string): string {
  return JSON.stringify(text);
}
