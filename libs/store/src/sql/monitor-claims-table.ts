/**
 * Who is judging or delivering what for `parley monitor`, in SQL both dialects run as it is:
 * SQLite's schema step 16 and PostgreSQL's step 3. Two monitor jobs over the same logs (a cron
 * job still running when the next one starts) claim each conversation before judging it, and each
 * outbox item before sending it; a claim whose process died is taken over once its lease (epoch
 * milliseconds) is past.
 */
export const monitorClaimsSql = `
  -- A conversation a monitor process is judging: the others leave it alone until the lease is past.
  -- Deleted when the conversation is saved (judged or not), or given back unjudged.
  CREATE TABLE monitor_claims (
    suite           TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    holder          TEXT NOT NULL,
    lease_until_ms  BIGINT NOT NULL,
    PRIMARY KEY (suite, conversation_id)
  );

  -- The process sending an outbox item, until when: another process does not send it meanwhile.
  ALTER TABLE outbox ADD COLUMN sender TEXT;
  ALTER TABLE outbox ADD COLUMN sending_until_ms BIGINT;
`;
