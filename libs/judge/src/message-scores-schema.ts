/**
 * The `message_scores` array of a judge's answer (JSON Schema): one item per assistant message,
 * named by its number in brackets in the rendered transcript, with its score, its reason and,
 * when the rubric has criteria, their verdicts. The judges that score messages one by one
 * (`conversation_judge`, per-message rubrics) differ only in those three parts.
 */
export function messageScoresSchema(item: { score: object; reason: object; criteria?: object }): object {
  return {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        message_index: { type: 'integer', description: 'The number in brackets of the assistant message' },
        score: item.score,
        reason: item.reason,
        ...(item.criteria !== undefined ? { criteria: item.criteria } : {}),
      },
      required: ['message_index', 'score', 'reason', ...(item.criteria !== undefined ? ['criteria'] : [])],
      additionalProperties: false,
    },
  };
}
