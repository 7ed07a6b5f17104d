import * as z from 'zod';

/** What a rule's match becomes: a placeholder such as `<account>`, which no rule ever matches again. */
const PLACEHOLDER_PATTERN = /^<[a-z][a-z0-9_]*>$/;

const RULE_FLAGS = /^[imsu]*$/;

/**
 * A suite's own redaction rule (`redaction.rules`, `redaction.extras.<vertical>.rules`): every
 * match of `pattern` becomes `replacement`. The replacement must be a placeholder so that a second
 * redaction finds nothing new (the redactor is idempotent); `g` is always added to the flags.
 */
const RedactionPatternRuleSchema = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9_]+$/, 'rule names use lowercase letters, digits and _'),
    pattern: z.string().min(1),
    flags: z.string().regex(RULE_FLAGS, 'flags are among i, m, s and u').optional(),
    replacement: z
      .string()
      .regex(PLACEHOLDER_PATTERN, 'a replacement is a placeholder such as "<diagnosis>" (lowercase letters, digits, _)')
      .default('<redacted>'),
  })
  .superRefine((rule, context) => {
    if (!RULE_FLAGS.test(rule.flags ?? '')) return; // already reported on `flags`
    try {
      new RegExp(rule.pattern, `${rule.flags ?? ''}g`);
    } catch (error) {
      context.addIssue({ code: 'custom', path: ['pattern'], message: `not a valid regular expression: ${(error as Error).message}` });
    }
  });
export type RedactionPatternRule = z.output<typeof RedactionPatternRuleSchema>;

/**
 * The extra rules of one restricted vertical (`redaction.extras.<vertical>`). A restricted vertical
 * is only let through once it has some, so an entry that configures none is an error.
 */
const RedactionExtrasSchema = z
  .strictObject({
    /** Patterns, as in `redaction.rules`. */
    rules: z.array(RedactionPatternRuleSchema).default([]),
    /** Words and phrases masked as `<redacted>` wherever they appear (whole words, any case). */
    terms: z.array(z.string().trim().min(1)).default([]),
    /** Structured fields (e.g. `diagnosis`) whose values are masked as `<redacted>`. */
    fields: z.array(z.string().trim().min(1)).default([]),
  })
  .refine((extras) => extras.rules.length + extras.terms.length + extras.fields.length > 0, {
    message: 'configure at least one of rules, terms or fields: a restricted vertical needs real extra rules',
  });

/** `redaction:` of parley.yaml (docs/privacy.md, "A suite's own rules"). The floor rules always apply; these add to them. */
export const RedactionSchema = z.strictObject({
  /** A text file of names to mask as `<name>`, one a line (`#` starts a comment). */
  identities: z.string().optional(),
  /** Structured fields holding a person's name (`customer_name`, `customer.name`); replaces the default list. */
  name_fields: z.array(z.string().trim().min(1)).optional(),
  /** Literal strings never masked, e.g. a helpline number that looks like a phone number. */
  keep: z.array(z.string().min(1)).optional(),
  /** The suite's own rules, applied after the floor's keep rules and before its masking rules. */
  rules: z.array(RedactionPatternRuleSchema).optional(),
  restricted_verticals: z.array(z.string()).optional(),
  extras: z.record(z.string(), RedactionExtrasSchema).optional(),
});
export type RedactionConfig = z.output<typeof RedactionSchema>;
