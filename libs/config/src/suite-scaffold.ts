import { pinnedUses } from './github-actions.js';
import type { JsonSchemaKind } from './json-schemas.js';

/** The agent kinds `parley init` can scaffold, in the order it offers them. */
export const SCAFFOLD_AGENT_KINDS = ['openai', 'openai-responses', 'anthropic', 'openai-compatible', 'http', 'command', 'module'] as const;
export type ScaffoldAgentKind = (typeof SCAFFOLD_AGENT_KINDS)[number];

export function isScaffoldAgentKind(kind: string): kind is ScaffoldAgentKind {
  return (SCAFFOLD_AGENT_KINDS as readonly string[]).includes(kind);
}

/** One line per kind for the question `parley init` asks on a terminal. */
export const SCAFFOLD_AGENT_KIND_HELP: Record<ScaffoldAgentKind, string> = {
  openai: 'a system prompt on an OpenAI model (OPENAI_API_KEY)',
  'openai-responses': "the same through OpenAI's Responses API (OPENAI_API_KEY)",
  anthropic: 'a system prompt on a Claude model (ANTHROPIC_API_KEY)',
  'openai-compatible': 'a model on an OpenAI-compatible server (vLLM, Ollama)',
  http: 'your assistant behind an HTTP endpoint',
  command: 'your assistant as a program: JSON lines on stdin/stdout',
  module: 'your assistant as a JavaScript/TypeScript function',
};

export interface ScaffoldOptions {
  agentKind: ScaffoldAgentKind;
  /** Name of the suite in parley.yaml (letters, digits, `_ . -`). */
  suiteName: string;
  /** The `$schema=` reference of a file kind, as seen from a file in the given folder of the suite. */
  schemaRef: (kind: JsonSchemaKind, folder: string) => string;
  /**
   * The suite folder relative to the project root (where package.json is), `/`-separated; `.` (the
   * default) for the project itself. The commands in the files' comments name it, so that they
   * work as pasted at the project root, as init's printed next steps do.
   */
  suitePath?: string;
}

export interface ScaffoldFile {
  /** Relative to the suite folder, `/`-separated. */
  path: string;
  content: string;
}

const AGENT_NAME = 'assistant';

/** The files of a new suite with one agent of the given kind: each validates and runs as written. */
export function scaffoldSuite(options: ScaffoldOptions): ScaffoldFile[] {
  const schemaLine = (kind: JsonSchemaKind, folder: string): string => `# yaml-language-server: $schema=${options.schemaRef(kind, folder)}\n`;
  const files: ScaffoldFile[] = [
    { path: 'parley.yaml', content: schemaLine('suite', '.') + suiteFile(options) },
    { path: 'scenarios/first_conversation.yaml', content: schemaLine('scenario', 'scenarios') + FIRST_SCENARIO },
    { path: 'metrics/helpfulness.yaml', content: schemaLine('metric', 'metrics') + HELPFULNESS_METRIC },
  ];
  if (isPromptKind(options.agentKind)) files.push({ path: 'prompts/assistant.md', content: SYSTEM_PROMPT });
  if (options.agentKind === 'http') files.push({ path: 'agents/http-agent.mjs', content: httpAgent(options.suitePath ?? '.') });
  if (options.agentKind === 'command') files.push({ path: 'agents/command-agent.mjs', content: COMMAND_AGENT });
  if (options.agentKind === 'module') files.push({ path: 'agents/module-agent.mjs', content: MODULE_AGENT });
  return files;
}

/** Lines `parley init` makes sure the suite's `.gitignore` has. */
export const SCAFFOLD_GITIGNORE_LINES = ['.parley/'];

export type PromptScaffoldKind = 'openai' | 'openai-responses' | 'anthropic' | 'openai-compatible';

export function isPromptKind(kind: ScaffoldAgentKind): kind is PromptScaffoldKind {
  return kind === 'openai' || kind === 'openai-responses' || kind === 'anthropic' || kind === 'openai-compatible';
}

function suiteFile(options: ScaffoldOptions): string {
  const suite = shellPath(options.suitePath ?? '.');
  const commands = [
    [`npx parley validate ${suite}`, 'checks every file'],
    [`npx parley run ${suite} --mode record`, 'talks to the agent and writes recordings/ (commit them)'],
    [`npx parley run ${suite}`, 'replays recordings/ offline: no keys, no network, no cost'],
  ];
  const width = Math.max(...commands.map(([command]) => command!.length));
  const lines = commands.map(([command, what]) => `#   ${command!.padEnd(width)}   ${what!}`).join('\n');
  return `# A Parley suite: agents to test, scenarios/ (one conversation per file), metrics/ (judged rubrics),
# each command run at the project root (where package.json is):
${lines}
suite: ${options.suiteName}
agents:
  ${AGENT_NAME}:
${agentBlock(options.agentKind)}
# An LLM judge scores the judged metrics (metrics/*.yaml, conversation_judge); uncomment to use them:
# judge:
#   primary: { provider: openai, model: gpt-4.1, temperature: 0 }
`;
}

function agentBlock(kind: ScaffoldAgentKind): string {
  switch (kind) {
    case 'openai':
      return `    kind: openai                     # key from OPENAI_API_KEY (base URL: OPENAI_BASE_URL)
    model: gpt-4.1-mini
    system_prompt: prompts/assistant.md
    temperature: 0`;
    case 'openai-responses':
      return `    kind: openai-responses           # OpenAI's Responses API; key from OPENAI_API_KEY (base URL: OPENAI_BASE_URL)
    model: gpt-4.1-mini
    system_prompt: prompts/assistant.md
    temperature: 0`;
    case 'anthropic':
      return `    kind: anthropic                  # key from ANTHROPIC_API_KEY (base URL: ANTHROPIC_BASE_URL)
    model: claude-sonnet-4-6
    system_prompt: prompts/assistant.md
    temperature: 0`;
    case 'openai-compatible':
      return `    kind: openai-compatible          # any server speaking the OpenAI Chat Completions API
    model: llama3.1
    # base_url: http://127.0.0.1:11434/v1   # your server (else OPENAI_BASE_URL); key: OPENAI_API_KEY if it needs one
    system_prompt: prompts/assistant.md
    temperature: 0`;
    case 'http':
      return `    kind: http                       # one POST per user turn; answer { reply, tool_calls?, state? }
    url: \${AGENT_URL:-http://127.0.0.1:8787}/chat   # your service (AGENT_URL), else the stub agents/http-agent.mjs
    timeout_ms: 30000`;
    case 'command':
      return `    kind: command                    # one process per scenario, JSON lines on stdin/stdout
    command: ["node", "agents/command-agent.mjs"]
    timeout_ms: 30000`;
    case 'module':
      return `    kind: module                     # Parley imports it and calls respond(turn) per user turn
    module: agents/module-agent.mjs`;
  }
}

const FIRST_SCENARIO = `# A golden conversation: the user's turns, and what must hold of the agent's answers.
# The id is the file name. More: tools (mocked tool results), language, gate, user.simulate.
id: first_conversation
title: A customer says hello and asks what the assistant can do
agent: ${AGENT_NAME}
tags: [smoke]
gate: blocking                         # advisory scenarios are reported but never fail the run
user:
  opening: "Hello! What can you help me with?"
  script:
    - "Thanks, that is all for now."
expect:
  - { metric: content_signals, forbidden: ["as an AI language model"] }
  - { metric: max_turns, max: 4 }
  # A judged metric from metrics/ (needs judge.primary in parley.yaml):
  # - { metric: helpfulness, threshold: 0.7 }
`;

const HELPFULNESS_METRIC = `# A judged rubric metric: the suite's LLM judge rates each conversation on the scale, normalised
# to [0, 1]. Bump version whenever the rubric or the criteria change (cached verdicts and baselines
# key on it); metrics/.rubric-lock.json records each version's hash: commit it.
name: helpfulness
version: 1.0.0
scale: { min: 1, max: 5 }
applies_to: conversation
rubric: |
  Rate how well the assistant helped the customer reach their goal.
  5: every question answered correctly and briefly, in the customer's language.
  3: the customer got there, but with detours, repetition or a vague answer.
  1: the customer was misled, ignored or left without an answer.
criteria:
  - { id: answers_the_question, text: "Answers what the customer asked", level: required }
  - { id: no_invented_facts, text: "Does not invent prices, times or policies", level: required }
  - { id: one_question_at_a_time, text: "Asks at most one question per message", level: recommended }
`;

const SYSTEM_PROMPT = `You are the assistant of our business. Answer customers' questions briefly and politely, in the
language they write in. Ask one question at a time. If you do not know something, say so and offer
to connect the customer with a person.
`;

const REPLY_STUB = `// Replace this with a call to your assistant.
function answer(turn) {
  if (turn.turn === 1) return { reply: 'Hello! I can answer questions about our services. What would you like to know?', state: 'greeting' };
  return { reply: 'You are welcome. Goodbye!', state: 'done' };
}`;

/** A suite path as one shell word in bash, zsh, PowerShell and cmd: quoted when it has a space. */
function shellPath(path: string): string {
  return /^[A-Za-z0-9._/-]+$/.test(path) ? path : `"${path}"`;
}

/** The \`http\` agent stub; its comment's commands run at the project root, `suitePath` being the suite's folder there. */
function httpAgent(suitePath: string): string {
  const agent = shellPath(suitePath === '.' ? 'agents/http-agent.mjs' : `${suitePath}/agents/http-agent.mjs`);
  const commands = [`node ${agent}`, `npx parley run${suitePath === '.' ? '' : ` ${shellPath(suitePath)}`} --mode record`];
  const width = Math.max(37, ...commands.map((command) => command.length));
  return `#!/usr/bin/env node
// An \`http\` agent for Parley: one POST per user turn with the body
//   { conversation_id, tenant, scenario_id, turn, message, history }
// answered with { reply, tool_calls?, state? }. This stub stands in for your service:
//   ${commands[0]!.padEnd(width)} # in one terminal: prints the URL it listens on (PORT, default 8787)
//   ${commands[1]!.padEnd(width)} # in another: parley.yaml's url defaults to http://127.0.0.1:8787
import { createServer } from 'node:http';

${REPLY_STUB}

const server = createServer((request, response) => {
  let text = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => (text += chunk));
  request.on('end', () => {
    try {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(JSON.parse(text))));
    } catch (error) {
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }));
    }
  });
});
server.listen(Number(process.env.PORT ?? 8787), '127.0.0.1', () => console.log(\`http agent listening on http://127.0.0.1:\${server.address().port}\`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
`;
}

const COMMAND_AGENT = `#!/usr/bin/env node
// A \`command\` agent for Parley: one process per scenario; one JSON line per user turn on stdin
//   { conversation_id, tenant, scenario_id, turn, message, history }
// and one JSON line back on stdout: { reply, tool_calls?, state? }. Log to stderr.
import { createInterface } from 'node:readline';

${REPLY_STUB}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== '') process.stdout.write(\`\${JSON.stringify(answer(JSON.parse(line)))}\\n\`);
}
`;

const MODULE_AGENT = `// A \`module\` agent for Parley: imported once, \`respond(turn, { signal })\` is called per user turn
// with { conversation_id, tenant, scenario_id, turn, message, history } and returns the reply text
// or { reply, tool_calls?, state? }. In TypeScript: \`export const respond = defineAgent(async (turn) => …)\`
// with \`import { defineAgent } from 'parley-eval'\`.

${REPLY_STUB}

/** @type {import('parley-eval').AgentRespond} */
export async function respond(turn) {
  return answer(turn);
}
`;

export interface WorkflowOptions {
  /** The project folder (package.json, node_modules) relative to the git root, `/`-separated; `.` at the root. */
  projectPath: string;
  /** The suite folder relative to the project, `/`-separated (`.` for the project itself). */
  suitePath: string;
  /** Where setup-node reads the Node version, relative to the git root (`.nvmrc`, `package.json`), or undefined for 22. */
  nodeVersionFile: string | undefined;
  /** The project has a package-lock.json: `npm ci` and setup-node's npm cache; else `npm install`. */
  lockFile: boolean;
  /**
   * The branch whose pushes also run the workflow: the repository's current branch (`master` where
   * git init made that one); `main` when left out.
   */
  branch?: string;
}

/** A branch name as a YAML flow-sequence item: plain when it is safe so, else double-quoted. */
function yamlBranch(branch: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(branch) ? branch : JSON.stringify(branch);
}

/**
 * `.github/workflows/parley.yml` at the git root: replays the suite on every pull request with
 * plain steps (no unpublished Action), each third-party action pinned to a commit.
 */
export function scaffoldWorkflow(options: WorkflowOptions): ScaffoldFile {
  const below = options.projectPath !== '.';
  const inProject = (path: string): string => (below ? `${options.projectPath}/${path}` : path);
  const suiteArgument = options.suitePath === '.' ? '' : ` ${options.suitePath}`;
  const node = options.nodeVersionFile === undefined ? '          node-version: 22' : `          node-version-file: ${options.nodeVersionFile}`;
  const npmCache = options.lockFile ? `\n          cache: npm\n          cache-dependency-path: ${inProject('package-lock.json')}` : '';
  return {
    path: '.github/workflows/parley.yml',
    content: `# Replays the Parley suite on every pull request (offline, from the committed recordings) and
# fails the check when a blocking scenario fails: annotations on the scenario files, the job
# summary, and the report folder as an artifact. Actions are pinned to commits (version beside).
name: parley
on:
  pull_request:
  push:
    branches: [${yamlBranch(options.branch ?? 'main')}]
permissions:
  contents: read
jobs:
  parley:
    runs-on: ubuntu-latest
${below ? `    defaults:\n      run:\n        working-directory: ${options.projectPath}\n` : ''}    steps:
      - ${pinnedUses('checkout')}
      - ${pinnedUses('setupNode')}
        with:
${node}${npmCache}
      - run: ${options.lockFile ? 'npm ci' : 'npm install'}
      # The judge verdict cache and run history: kept between runs of the same branch.
      - ${pinnedUses('cache')}
        with:
          path: ${inProject('.parley/parley.db')}
          key: parley-\${{ github.ref_name }}-\${{ github.run_id }}
          restore-keys: |
            parley-\${{ github.ref_name }}-
            parley-
      - run: npx parley run${suiteArgument} --reporter github --out reports/parley
      - if: always()
        id: upload
        ${pinnedUses('uploadArtifact')}
        with:
          name: parley-report
          path: ${inProject('reports/parley')}
          if-no-files-found: ignore
      # The report folder's link in the job summary: its report.html opens offline, from the artifact.
      - if: always() && steps.upload.outputs.artifact-url != ''
        env:
          REPORT_URL: \${{ steps.upload.outputs.artifact-url }}
        run: |
          echo "Parley report: [download the artifact]($REPORT_URL), unzip it and open report.html (or unzip it in your project and run npx parley show-report . in its folder)" >> "$GITHUB_STEP_SUMMARY"
`,
  };
}
