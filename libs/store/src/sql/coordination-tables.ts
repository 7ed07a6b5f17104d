/**
 * Tables of the two concurrency primitives (shared budgets, judge claims), in SQL both dialects
 * run as it is: SQLite's schema step 15 and PostgreSQL's step 2.
 */
export const coordinationTablesSql = `
  -- One budget many processes spend from (a pull request's shards): what was spent and what is
  -- held by calls still going on, in micro-dollars so that sums are exact.
  CREATE TABLE shared_budgets (
    key             TEXT PRIMARY KEY,
    spent_micros    BIGINT NOT NULL DEFAULT 0,
    reserved_micros BIGINT NOT NULL DEFAULT 0
  );

  -- Who is judging what: the first process to claim a key judges it, the others wait for its
  -- verdict. A claim whose holder died is taken over once its lease (epoch milliseconds) is past.
  CREATE TABLE judge_claims (
    key            TEXT PRIMARY KEY,
    holder         TEXT NOT NULL,
    lease_until_ms BIGINT NOT NULL,
    -- The verdict once judged (JSON, opaque to the store); NULL while being judged.
    value_json     TEXT
  );
`;
