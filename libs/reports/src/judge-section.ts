import type { JudgeReport } from './report-schema.js';

/**
 * What the judges did, in one paragraph for summary.md and the console: the judge and how it was
 * answered, verdicts and errors, how many came from the cache (they cost 0), and the cross-check's
 * agreement per metric; after `--resume`, said to be of the resumed part (`resumed_part`). Null
 * when the run had no judge.
 *
 * @example
 * 'Judge anthropic:claude-opus-4-7 (live): 12 verdicts, 3 from the cache (cost 0, saved $0.0210);
 *  cross-check openai:gpt-4.1 on 1 of 8 scenarios (10%, seed 42): conversation_judge agreed 1 of 1 (100%)'
 */
export function judgeSummary(judge: JudgeReport | undefined): string | null {
  if (judge === undefined) return null;
  const parts = [`${judge.verdicts} ${judge.verdicts === 1 ? 'verdict' : 'verdicts'}`];
  if (judge.errors > 0) parts.push(`${judge.errors} could not be evaluated`);
  if ((judge.not_asked?.budget ?? 0) > 0) parts.push(`${judge.not_asked!.budget} not asked (the budget was reached)`);
  if ((judge.not_asked?.interrupted ?? 0) > 0) parts.push(`${judge.not_asked!.interrupted} cut short by the interruption`);
  if (judge.votes_on_fail !== undefined) {
    const panel = judge.panel !== undefined && judge.panel.length > 0 ? ` with the panel ${judge.panel.join(', ')}` : '';
    parts.push(`${judge.re_asked ?? 0} failing re-asked${panel} (majority of ${judge.votes_on_fail})`);
  }
  if (judge.cache.hits > 0) {
    const saved = judge.cache.saved_usd === null ? 'saved an unknown amount' : `saved $${judge.cache.saved_usd.toFixed(4)}`;
    parts.push(`${judge.cache.hits} from the cache (cost 0, ${saved})`);
  }
  if (judge.cache.cleared) parts.push('cache cleared first');
  const scope = judge.resumed_part ? ' in this resumed part' : '';
  let text = `Judge ${judge.primary} (${judge.mode})${scope}: ${parts.join(', ')}`;
  const crossCheck = judge.cross_check;
  if (crossCheck !== undefined) {
    const percent = `${Number((crossCheck.sample * 100).toFixed(2))}%`;
    const agreement = crossCheck.agreement.map(
      (entry) => `${entry.metric} agreed ${entry.agreed} of ${entry.compared}${entry.rate === null ? '' : ` (${Math.round(entry.rate * 100)}%)`}`,
    );
    text += `; cross-check ${crossCheck.model} on ${crossCheck.checked.length} of ${crossCheck.sampled.length} sampled scenarios (${percent}, seed ${crossCheck.seed})`;
    if (agreement.length > 0) text += `: ${agreement.join(', ')}`;
    const kappa = crossCheck.kappa;
    if (kappa !== undefined && kappa.pass_fail !== null) {
      const before = kappa.trend.length === 0 ? '' : ` (before: ${kappa.trend.map((entry) => entry.kappa.toFixed(2)).join(', ')})`;
      text += `; kappa ${kappa.pass_fail.toFixed(2)} on ${kappa.pairs} verdicts${before}`;
    }
    if (crossCheck.downgrade !== undefined) text += `; ${crossCheck.downgrade.message}`;
  }
  return text;
}

/**
 * The judge section of a report merged from shards (`parley merge-reports`): counts add up, the
 * cross-check's sampled and checked scenarios are joined (each shard cross-checks its part of one
 * sample, see @parley/judge), and agreement is recomputed from the shards' counts. Undefined when
 * no shard had a judge.
 */
export function mergeJudgeReports(judges: ReadonlyArray<JudgeReport | undefined>): JudgeReport | undefined {
  const present = judges.filter((judge): judge is JudgeReport => judge !== undefined);
  const first = present[0];
  if (first === undefined) return undefined;
  const sum = (pick: (judge: JudgeReport) => number | undefined): number => present.reduce((total, judge) => total + (pick(judge) ?? 0), 0);
  const saved = present.some((judge) => judge.cache.saved_usd === null) ? null : sum((judge) => judge.cache.saved_usd ?? 0);
  const crossChecks = present.flatMap((judge) => (judge.cross_check ? [judge.cross_check] : []));
  const firstCross = crossChecks[0];
  const union = (lists: string[][]): string[] => [...new Set(lists.flat())].sort();
  let crossCheck: JudgeReport['cross_check'];
  if (firstCross !== undefined) {
    const tallies = new Map<string, { compared: number; agreed: number; difference: number }>();
    for (const entry of crossChecks.flatMap((check) => check.agreement)) {
      const tally = tallies.get(entry.metric) ?? { compared: 0, agreed: 0, difference: 0 };
      tally.compared += entry.compared;
      tally.agreed += entry.agreed;
      tally.difference += (entry.mean_abs_score_difference ?? 0) * entry.compared;
      tallies.set(entry.metric, tally);
    }
    const downgrades = crossChecks.flatMap((check) => (check.downgrade ? [check.downgrade] : []));
    crossCheck = {
      model: firstCross.model,
      sample: firstCross.sample,
      seed: firstCross.seed,
      sampled: union(crossChecks.map((check) => check.sampled)),
      checked: union(crossChecks.map((check) => check.checked)),
      agreement: [...tallies.entries()]
        .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
        .map(([metric, tally]) => ({
          metric,
          compared: tally.compared,
          agreed: tally.agreed,
          rate: tally.compared === 0 ? null : tally.agreed / tally.compared,
          mean_abs_score_difference: tally.compared === 0 ? null : tally.difference / tally.compared,
        })),
      ...(downgrades[0] !== undefined ? { downgrade: { ...downgrades[0], not_checked: union(downgrades.map((downgrade) => downgrade.not_checked)) } } : {}),
    };
  }
  return {
    primary: first.primary,
    mode: first.mode,
    verdicts: sum((judge) => judge.verdicts),
    errors: sum((judge) => judge.errors),
    ...(present.some((judge) => judge.not_asked !== undefined)
      ? { not_asked: { budget: sum((judge) => judge.not_asked?.budget), interrupted: sum((judge) => judge.not_asked?.interrupted) } }
      : {}),
    ...(first.votes_on_fail !== undefined ? { votes_on_fail: first.votes_on_fail, re_asked: sum((judge) => judge.re_asked) } : {}),
    ...(first.panel !== undefined ? { panel: [...first.panel] } : {}),
    cache: {
      read: present.some((judge) => judge.cache.read),
      written: present.some((judge) => judge.cache.written),
      cleared: present.some((judge) => judge.cache.cleared),
      hits: sum((judge) => judge.cache.hits),
      misses: sum((judge) => judge.cache.misses),
      saved_usd: saved,
    },
    ...(crossCheck ? { cross_check: crossCheck } : {}),
    // A shard finished with --resume counted only its resumed part: so does the sum.
    ...(present.some((judge) => judge.resumed_part) ? { resumed_part: true as const } : {}),
  };
}
