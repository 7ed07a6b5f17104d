/**
 * Anthropic's prompt-cache writes (input tokens written to the cache at a premium), beside the
 * cached input read, in SQL both dialects run as it is: SQLite's schema step 18 and PostgreSQL's
 * step 4. `parley cost` shows them; rows recorded before have 0.
 */
export const cacheWriteColumnsSql = `
  ALTER TABLE model_spend ADD COLUMN cache_write_input_tokens BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE judge_spend ADD COLUMN cache_write_input_tokens BIGINT NOT NULL DEFAULT 0;
`;
