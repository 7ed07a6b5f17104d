import { isAbsolute, relative } from 'node:path';
import { scenarioFileId } from '@parley/core';
import type { RunPlan } from './plan-run.js';
import { shellWord } from './shell-word.js';

/**
 * The command that runs the scenarios a run's budget left out (skipped before they started, or
 * cut short): a run stopped by its budget finished, so `--resume` refuses it, and `--last-failed`
 * selects only failures and errors. Names them with `--scenario` (every variant and compared agent
 * of a scenario), in the run's mode, judging, agents, repeats and `--budget`; undefined when the
 * budget left nothing out.
 *
 * @example budgetRerunCommand(plan, ['s2', 's3'], () => 'npx parley') // 'npx parley run suite --mode live --scenario s2 --scenario s3'
 */
export function budgetRerunCommand(plan: Pick<RunPlan, 'options' | 'mode' | 'agents' | 'suite' | 'cwd'>, leftOut: readonly string[], parleyCommand?: () => string): string | undefined {
  if (leftOut.length === 0) return undefined;
  const { options, mode } = plan;
  const below = relative(plan.cwd, plan.suite.dir);
  const suite = below === '' ? '.' : below.startsWith('..') || isAbsolute(below) ? plan.suite.dir : below;
  const words = [
    'run',
    suite,
    ...(mode !== 'replay' ? ['--mode', mode] : []),
    ...(options.judgeMode !== undefined ? ['--judge', options.judgeMode] : []),
    ...(plan.agents ?? []).flatMap((agent) => ['--agent', agent]),
    ...(options.repeat !== undefined && options.repeat > 1 ? ['--repeat', String(options.repeat)] : []),
    ...(options.budgetUsd !== undefined ? ['--budget', String(options.budgetUsd)] : []),
    ...[...new Set(leftOut.map(scenarioFileId))].flatMap((id) => ['--scenario', id]),
  ];
  return `${parleyCommand?.() ?? 'parley'} ${words.map(shellWord).join(' ')}`;
}
