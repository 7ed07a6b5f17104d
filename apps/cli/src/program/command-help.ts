import type { Command } from 'commander';
import { wrapText } from '../output/text-wrap.js';

/** What ends a command's `--help`: real examples, and the environment variables it reads. */
interface HelpFooter {
  examples: Array<[command: string, what: string]>;
  environment: Array<[variable: string, what: string]>;
}

const KEYS: HelpFooter['environment'] = [
  ['OPENAI_API_KEY, ANTHROPIC_API_KEY', 'provider keys for live calls (or the variable an agent names in api_key_env)'],
  ['OPENAI_BASE_URL, ANTHROPIC_BASE_URL', 'another endpoint for the provider (a proxy, a compatible server)'],
  ['PARLEY_CONNECT_TIMEOUT_MS', 'a provider host that does not take the connection within it fails the call (10000)'],
];

/** Read by every command. */
const EVERY_COMMAND: HelpFooter['environment'] = [
  ['NO_COLOR, FORCE_COLOR=0', 'no colour (FORCE_COLOR=1: colour even off a terminal); also --no-color'],
  ['PARLEY_DEBUG=1', 'print the stack of an internal error'],
];

/** Read by every command that opens the store (docs/team-store.md). */
const STORE: HelpFooter['environment'] = [
  ['PARLEY_DATABASE_URL', "postgres:// URL of a team store instead of .parley/parley.db (wins over parley.yaml's settings.store.url_env)"],
];

/** The commands that open the store: their footers end with STORE's variables. */
const STORE_COMMANDS = new Set([
  'run',
  'compare',
  'show-report',
  'cache stats',
  'cache clear',
  'calibrate import',
  'calibrate judge',
  'calibrate report',
  'calibrate status',
  'tui',
  'tui rate',
  'tui kappa',
  'tui run',
  'export',
  'monitor',
  'canary assign',
  'canary compare',
  'cost',
  'runs list',
  'runs show',
  'runs prune',
]);

/** The footer of each command, by its path below `parley` ("runs list"). */
const HELP_FOOTERS: Record<string, HelpFooter> = {
  run: {
    examples: [
      ['parley run', 'replay the suite in this folder from its recordings (no keys, no network)'],
      ['parley run my-suite --baseline baseline.json --reporter github', 'gate a PR against a baseline, with annotations'],
      ['parley run my-suite --mode record --scenario "spa_*"', 'call the models and rewrite the recordings of some scenarios'],
    ],
    environment: [
      ...KEYS,
      ['PARLEY_BUDGET_USD', 'spending limit when --budget is not given'],
      ['GITHUB_ACTIONS=true', 'adds the github reporter to the default console'],
      ['GITHUB_WORKSPACE', 'annotation paths are relative to it'],
      ['GITHUB_STEP_SUMMARY', 'summary.md is appended to this file'],
      ['CI=true', 'plain progress lines instead of a progress bar'],
    ],
  },
  validate: {
    examples: [
      ['parley validate', 'check every file of the suite in this folder'],
      ['parley validate my-suite --format json', 'the result (or the problems) as JSON on stdout'],
    ],
    environment: [['GITHUB_ACTIONS=true', 'problems are also printed as annotations (::error file=…,line=…)']],
  },
  compare: {
    examples: [
      ['parley compare 20261126-101500 20261126-113000', 'two stored runs (id prefixes): status changes and metric deltas'],
      ['parley compare main-report/ pr-report/ --format json', 'two report folders, as JSON'],
      ['parley compare RUN_A RUN_B --pairwise --suite my-suite', "also let the suite's judge compare the transcripts (live calls)"],
    ],
    environment: KEYS,
  },
  'merge-reports': {
    examples: [
      ['parley merge-reports shard-1 shard-2 shard-3 --out merged', 'one report and one exit code from the shards of a run'],
      ['parley merge-reports shard-* --export-baseline baseline.json', 'the baseline of a sharded main branch'],
    ],
    environment: [['GITHUB_STEP_SUMMARY', 'summary.md is appended to this file']],
  },
  'show-report': {
    examples: [
      ['parley show-report', "the latest run's report.html in a browser"],
      ['parley show-report 20261126-101500 --port 9323', 'one run (an id prefix), on a port of your choice'],
      ['parley show-report calibration/reports/2026-11-27.html', 'a calibration report page'],
    ],
    environment: [['DISPLAY, WAYLAND_DISPLAY', 'a browser is opened only on a terminal with a display (any on macOS and Windows)']],
  },
  promote: {
    examples: [
      ['parley promote --logs logs.jsonl --feedback feedback.jsonl --since 7d', 'turn last week’s 👎 conversations into advisory scenarios'],
      ['parley promote --logs logs.jsonl --langfuse https://langfuse.example.org', 'take the feedback from a Langfuse'],
    ],
    environment: [
      ['LANGFUSE_BASE_URL (or LANGFUSE_HOST)', 'the Langfuse of --langfuse without a URL'],
      ['LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY', 'its keys'],
    ],
  },
  generate: {
    examples: [
      ['parley generate --from "a salon booking assistant: test refunds" --count 5', 'draft 5 scenarios with the simulator model'],
      ['parley generate --from-dataset dialogues.json --count 10', 'scripted scenarios from SGD dialogues (or a conversation log)'],
      ['parley generate --from "M-Pesa payments" --language sw --mode record', 'in Swahili, recording the calls'],
    ],
    environment: KEYS,
  },
  'recordings export': {
    examples: [
      ['parley recordings export --out shared-recordings', 'copy every recording of the suite here, masked'],
      ['parley recordings export my-suite --out out --scenario "gbv_*"', 'only some scenarios'],
    ],
    environment: [],
  },
  'cache stats': {
    examples: [
      ['parley cache stats', 'verdicts, reuses and what they saved'],
      ['parley cache stats --format json', 'the same as JSON'],
    ],
    environment: [],
  },
  'cache clear': {
    examples: [
      ['parley cache clear', 'forget every cached verdict'],
      ['parley cache clear --metric fluency_sw --scenario spa_booking_codeswitch', 'only these verdicts'],
    ],
    environment: [],
  },
  'calibrate import': {
    examples: [
      ['parley calibrate import conversations.jsonl', 'add masked conversations as unrated items'],
      ['parley calibrate import --from-run 20261126-101500-a1b2c3 --suite my-suite', "a stored run's transcripts"],
    ],
    environment: [],
  },
  'calibrate judge': {
    examples: [
      ['parley calibrate judge', 'replay the recorded judge ratings'],
      ['parley calibrate judge --mode record --suite my-suite', "let the suite's judges rate every item (live calls)"],
    ],
    environment: KEYS,
  },
  'calibrate report': {
    examples: [
      ['parley calibrate report', 'agreement of the judges with people against the default gate'],
      ['parley calibrate report --min-kappa 0.8 --format json', 'a stricter gate, as JSON'],
    ],
    environment: [],
  },
  'calibrate status': {
    examples: [
      ['parley calibrate status', 'items, ratings per reviewer and the last judge session'],
      ['parley calibrate status --dir my-calibration', 'another calibration folder'],
    ],
    environment: [],
  },
  tui: {
    examples: [
      ['parley tui', 'the agent index, runs and failure triage of the suite here'],
      ['parley tui my-suite', 'of another suite'],
    ],
    environment: [],
  },
  'tui rate': {
    examples: [
      ['parley tui rate', 'rate the calibration items as yourself'],
      ['parley tui rate --reviewer amina --dir my-calibration', 'as a named reviewer, in another folder'],
    ],
    environment: [['PARLEY_REVIEWER', 'who is rating when --reviewer is not given']],
  },
  'tui kappa': {
    examples: [
      ['parley tui kappa', 'the latest calibration report'],
      ['parley tui kappa --dir my-calibration', 'of another calibration folder'],
    ],
    environment: [],
  },
  'tui run': {
    examples: [
      ['parley tui run', 'watch a replay of the suite here with live progress'],
      ['parley tui run my-suite --mode live --budget 2', 'a live run with a spending limit'],
    ],
    environment: [...KEYS, ['PARLEY_BUDGET_USD', 'spending limit when --budget is not given']],
  },
  init: {
    examples: [
      ['parley init --yes', 'a suite in this folder with an openai agent, asking nothing'],
      ['parley init evals --agent-kind http --github', 'an http agent in evals/, and a workflow'],
    ],
    environment: [],
  },
  schema: {
    examples: [
      ['parley schema scenario', 'the JSON Schema of scenario files'],
      ['parley schema suite > parley.schema.json', 'of parley.yaml, into a file'],
    ],
    environment: [],
  },
  export: {
    examples: [
      ['parley export 20261126-101500 --to langfuse', 'send a stored run to Langfuse'],
      ['parley export 20261126-101500 --to langfuse --dataset booking', 'and record it as an experiment'],
      ['parley export out/ --to otlp=http://127.0.0.1:4318', 'a report folder to an OTLP collector'],
    ],
    environment: [
      ['LANGFUSE_HOST, LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY', 'the Langfuse of --to langfuse and its keys'],
      ['PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS', 'no answer from Langfuse within it: retry (10000)'],
      ['PARLEY_LANGFUSE_TIMEOUT_MS', 'a Langfuse call in all, retries included (120000)'],
      ['OTEL_EXPORTER_OTLP_*', 'endpoint, headers, protocol of --to otlp'],
    ],
  },
  monitor: {
    examples: [
      ['parley monitor --logs conversations.jsonl', 'judge a 5% sample of the last 6 hours'],
      ['parley monitor --logs logs.jsonl --since 24h --sample 10', 'a day, a larger sample'],
    ],
    environment: [...KEYS, ['PARLEY_BUDGET_USD', 'spending limit when --budget is not given']],
  },
  'canary assign': {
    examples: [
      ['parley canary assign --rollout 5 conv-1042 conv-1043', 'which of two conversations a 5% canary takes'],
      ['parley canary assign --rollout 5 --salt prompt-v4 < ids.txt', 'one id per line from stdin, another canary population'],
    ],
    environment: [],
  },
  'canary compare': {
    examples: [
      ['parley canary compare --logs l.jsonl --feedback f.json --stable 3 --canary 4', 'verdict'],
      ['parley canary compare --logs p.jsonl --stable 3 --canary 4 --since 24h', 'the last day only'],
    ],
    environment: [],
  },
  cost: {
    examples: [
      ['parley cost', 'spend of the last 30 days by suite, model and month'],
      ['parley cost --since 12w --format json shards/*', 'twelve weeks, with CI shard reports, as JSON'],
    ],
    environment: [],
  },
  'runs list': {
    examples: [
      ['parley runs list', 'the last 20 runs, newest first'],
      ['parley runs list --suite ratiba_booking --limit 5 --format json', 'the last 5 of one suite, as JSON'],
    ],
    environment: [],
  },
  'runs show': {
    examples: [
      ['parley runs show 20261126-101500', 'one run (an id prefix is enough)'],
      ['parley runs show 20261126-101500-a1b2c3 --format json', 'the same as JSON'],
    ],
    environment: [],
  },
  'runs prune': {
    examples: [
      ['parley runs prune --dry-run', "what settings.history would remove from this suite's runs"],
      ['parley runs prune', 'remove them, with their report folders'],
    ],
    environment: [],
  },
  'store copy': {
    examples: [
      ['parley store copy --to "$PARLEY_DATABASE_URL"', 'move this project\'s history into the team store'],
      ['parley store copy --from "$PARLEY_DATABASE_URL" --merge', 'add the team store\'s rows this file does not have'],
    ],
    environment: [],
  },
};

/** The path of a command below the program: `runs list`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

/** Every command below the program, groups (`runs`) included. */
export function allCommands(program: Command): Command[] {
  return program.commands.flatMap((command) => [command, ...allCommands(command)]);
}

/**
 * Ends the help of every command that has a footer with its examples and environment variables.
 * The examples start with `parley` as the person runs it (`npx parley` in a project whose
 * `parley` is not on PATH), found only when a help is shown.
 */
export function addHelpFooters(program: Command, parley: () => string): void {
  for (const command of allCommands(program)) {
    const path = commandPath(command);
    const footer = HELP_FOOTERS[path];
    if (footer !== undefined) command.addHelpText('after', () => renderFooter(STORE_COMMANDS.has(path) ? { ...footer, environment: [...footer.environment, ...STORE] } : footer, parley()));
  }
}

/** Help fits 80 columns: a name or a command on its line, what it does indented below it. */
function renderFooter(footer: HelpFooter, parley: string): string {
  const environment = [...footer.environment, ...EVERY_COMMAND];
  return [
    '',
    'Examples:',
    ...footer.examples.flatMap(([command, what]) => [`  $ ${parley}${command.slice('parley'.length)}`, ...wrapText(what, 79, '      ')]),
    '',
    'Environment:',
    ...environment.flatMap(([name, what]) => [`  ${name}`, ...wrapText(what, 79, '      ')]),
  ].join('\n');
}
