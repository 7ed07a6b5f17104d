import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Text } from 'ink';
import { MIXED_SUITE, tempFolder, THREE_RUNS, writeRuns, type TempFolder } from '../index-view/test-support/agent-index-fixture.js';
import { NavigationProvider, useNavigation } from '../navigation.js';
import { KEYS, press, renderApp, renderWithProviders, waitForFrame } from '../test-support/render-screen.js';
import { IndexScreen } from './index-screen.js';

let suite: TempFolder;
let storePath: string;

beforeEach(() => {
  suite = tempFolder(MIXED_SUITE);
  storePath = join(suite.path, '.parley', 'parley.db');
  writeRuns(storePath, THREE_RUNS);
});
afterEach(() => suite.remove());

/** The index with a probe in place of the other screens: shows the route they were opened with. */
function Probe() {
  const { route } = useNavigation();
  return route.screen === 'index' ? <IndexScreen /> : <Text>opened {JSON.stringify(route)}</Text>;
}

function renderIndex(services: { suitePath?: string; storePath?: string } = {}) {
  return renderWithProviders(
    <NavigationProvider start={{ screen: 'index' }}>
      <Probe />
    </NavigationProvider>,
    { services: { suitePath: suite.path, storePath, cwd: suite.path, ...services } },
  );
}

/** The table line of `agent` (the selected one starts with >). */
function lineOf(frame: string, agent: string): string {
  return frame.split('\n').find((line) => line.slice(2).startsWith(`${agent} `)) ?? '';
}

function agentsShown(frame: string): string[] {
  return ['booking', 'concierge', 'desk_cli', 'desk_http', 'stranger'].filter((agent) => lineOf(frame, agent) !== '');
}

function expectFits(frame: string) {
  const lines = frame.split('\n');
  expect(lines.length).toBeLessThanOrEqual(24);
  for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
}

describe('index screen', () => {
  it('after a partial run (fewer of the agent’s scenarios than the suite has) shows the newest result of each scenario, and says the run was partial', async () => {
    const [run3] = THREE_RUNS.filter((run) => run.id === 'run-3');
    // run-3 failed book_a; run-4 runs book_b alone (a --scenario selection) and passes.
    writeRuns(storePath, [{ id: 'run-4', minute: 5, results: run3!.results.filter((stored) => stored.scenario_id === 'book_b') }]);
    const rendered = renderWithProviders(
      <NavigationProvider start={{ screen: 'index' }}>
        <Probe />
      </NavigationProvider>,
      { services: { suitePath: suite.path, storePath, cwd: suite.path }, size: { columns: 200, rows: 50 } },
    );
    const frame = rendered.lastFrame() ?? '';
    expect(lineOf(frame, 'booking')).toMatch(/^> booking\s+prompt\s+openai\s+2\s+50%\s+failing\s/);
    expect(frame).toContain('booking: newest result of each scenario 50% of 2 (1 failing) · last run run-4 was partial: 1 of 2 scenarios, 100% passing');
    // A full last run is shown as it is.
    expect(lineOf(frame, 'desk_http')).toMatch(/100%\s+passing/);
  });

  it('at 80 columns the selected agent\'s line wraps instead of cutting off that its last run was partial', () => {
    const [run3] = THREE_RUNS.filter((run) => run.id === 'run-3');
    writeRuns(storePath, [{ id: '20261127-234450-edd039', minute: 5, results: run3!.results.filter((stored) => stored.scenario_id === 'book_b') }]);
    const frame = renderIndex().lastFrame() ?? '';
    const lines = frame.split('\n');
    const first = lines.findIndex((line) => line.startsWith('booking: newest result'));
    expect(`${lines[first]!.trimEnd()} ${lines[first + 1]!.trimEnd()}`).toBe(
      'booking: newest result of each scenario 50% of 2 (1 failing) · last run 20261127-234450-edd039 was partial: 1 of 2 scenarios, 100% passing',
    );
    expect(lineOf(frame, 'booking')).toMatch(/^> booking\s+prompt\s+openai\s+2\s+50%\s+failing\s/);
    expectFits(frame);
  });

  it('/ filters the agents by text in name, type, kind, status or tags; Enter keeps it, Esc clears it', async () => {
    const rendered = renderIndex();
    await waitForFrame(rendered, (text) => text.includes('4 of 4 agents'));
    await press(rendered, '/', ...'desk', KEYS.enter);
    let frame = await waitForFrame(rendered, (text) => text.includes('2 of 4 agents (filtered)'));
    expect(frame).toContain('filter> desk  (2 matches)');
    expect(agentsShown(frame)).toEqual(['desk_cli', 'desk_http']);
    expectFits(frame);
    await press(rendered, KEYS.escape, '/', ...'status:failing', KEYS.enter);
    frame = await waitForFrame(rendered, (text) => text.includes('1 of 4 agents (filtered)'));
    expect(agentsShown(frame)).toEqual(['booking']);
    // Enter opens the match; the keys are the list's again.
    await press(rendered, KEYS.enter);
    await waitForFrame(rendered, (text) => text.includes('opened {"screen":"runs","agent":"booking"}'));
  });

  it('shows every agent of the suite, prompts and services, with kind, scenarios, last pass rate, status and trend in the first frame', () => {
    const rendered = renderIndex();
    // No waiting: the history is read before the first frame.
    const frame = rendered.lastFrame() ?? '';
    expect(frame).toContain('Agents');
    expect(frame).toContain('front_desk · 4 of 4 agents');
    expect(lineOf(frame, 'booking')).toMatch(/^> booking\s+prompt\s+openai\s+2\s+50%\s+failing\s+█▅▅\s*$/);
    expect(lineOf(frame, 'concierge')).toMatch(/^ {2}concierge\s+prompt\s+anthropic\s+1\s+—\s+never run\s*$/);
    expect(lineOf(frame, 'desk_cli')).toMatch(/^ {2}desk_cli\s+service\s+command\s+0\s+—\s+never run\s*$/);
    expect(lineOf(frame, 'desk_http')).toMatch(/^ {2}desk_http\s+service\s+http\s+1\s+100%\s+passing\s+▁▁█\s*$/);
    // The other suite's agent is not this suite's.
    expect(frame).not.toContain('stranger');
    expect(frame).toMatch(/AGENT\s+TYPE\s+KIND\s+SCN\s+LAST\s+STATUS\s+RECENT RUNS/);
    expect(frame).toContain('kind: all tag: all status: all');
    expect(frame).toContain('booking: last run run-3 at 2026-11-26 12:03: 50% of 2 · tags booking, happy-path');
    for (const hint of [/↑↓\s+move/, /Enter\s+runs/, /f\s+kind/, /t\s+tag/, /s\s+status/, /x\s+clear/, /r\s+all runs/, /K\s+kappa/, /q\s+quit/]) {
      expect(frame).toMatch(hint);
    }
    expectFits(frame);
    // NO_COLOR (the test theme has colour off): not one colour escape.
    expect(frame).not.toMatch(/\u001B\[3\dm/);
  });

  it('f cycles the kind filter through prompt, service and each kind, then back to all', async () => {
    const rendered = renderIndex();
    await press(rendered, 'f');
    let frame = await waitForFrame(rendered, (text) => text.includes('kind: prompt'));
    expect(agentsShown(frame)).toEqual(['booking', 'concierge']);
    expect(frame).toContain('2 of 4 agents');
    await press(rendered, 'f');
    frame = await waitForFrame(rendered, (text) => text.includes('kind: service'));
    expect(agentsShown(frame)).toEqual(['desk_cli', 'desk_http']);
    await press(rendered, 'f', 'f', 'f');
    frame = await waitForFrame(rendered, (text) => text.includes('kind: http'));
    expect(agentsShown(frame)).toEqual(['desk_http']);
    await press(rendered, 'f', 'f');
    frame = await waitForFrame(rendered, (text) => text.includes('kind: all'));
    expect(agentsShown(frame)).toEqual(['booking', 'concierge', 'desk_cli', 'desk_http']);
  });

  it('t cycles the tag filter and s the status filter; x clears both', async () => {
    const rendered = renderIndex();
    await press(rendered, 't');
    let frame = await waitForFrame(rendered, (text) => text.includes('tag: booking'));
    expect(agentsShown(frame)).toEqual(['booking']);
    await press(rendered, 't', 't');
    frame = await waitForFrame(rendered, (text) => text.includes('tag: service'));
    expect(agentsShown(frame)).toEqual(['desk_http']);
    await press(rendered, 't', 't');
    frame = await waitForFrame(rendered, (text) => text.includes('tag: all'));

    await press(rendered, 's');
    frame = await waitForFrame(rendered, (text) => text.includes('status: passing'));
    expect(agentsShown(frame)).toEqual(['desk_http']);
    await press(rendered, 's');
    frame = await waitForFrame(rendered, (text) => text.includes('status: failing'));
    expect(agentsShown(frame)).toEqual(['booking']);
    await press(rendered, 's');
    frame = await waitForFrame(rendered, (text) => text.includes('status: never run'));
    expect(agentsShown(frame)).toEqual(['concierge', 'desk_cli']);

    await press(rendered, 'f');
    frame = await waitForFrame(rendered, (text) => text.includes('kind: prompt'));
    expect(agentsShown(frame)).toEqual(['concierge']);
    await press(rendered, 'f', 'f', 'f');
    frame = await waitForFrame(rendered, (text) => text.includes('kind: command'));
    expect(agentsShown(frame)).toEqual(['desk_cli']);
    await press(rendered, 'f');
    frame = await waitForFrame(rendered, (text) => text.includes('kind: http'));
    expect(frame).toContain('No agent matches these filters (x clears them).');

    await press(rendered, 'x');
    frame = await waitForFrame(rendered, (text) => text.includes('kind: all tag: all status: all'));
    expect(agentsShown(frame)).toEqual(['booking', 'concierge', 'desk_cli', 'desk_http']);
  });

  it('Enter opens the runs of the highlighted agent; ↓ and j move the highlight', async () => {
    const rendered = renderIndex();
    await press(rendered, KEYS.down, 'j', KEYS.down);
    let frame = await waitForFrame(rendered, (text) => lineOf(text, 'desk_http').startsWith('>'));
    expect(lineOf(frame, 'booking').startsWith('>')).toBe(false);
    await press(rendered, KEYS.up);
    frame = await waitForFrame(rendered, (text) => lineOf(text, 'desk_cli').startsWith('>'));
    expect(frame).toContain('desk_cli: no run yet');
    await press(rendered, KEYS.enter);
    frame = await waitForFrame(rendered, (text) => text.includes('opened'));
    expect(frame).toContain('opened {"screen":"runs","agent":"desk_cli"}');
  });

  it('Enter on a filtered list opens the agent shown, not the one at that place in the full list', async () => {
    const rendered = renderIndex();
    await press(rendered, 'f', 'f'); // services: desk_cli, desk_http
    await waitForFrame(rendered, (text) => text.includes('kind: service'));
    await press(rendered, KEYS.down, KEYS.enter);
    const frame = await waitForFrame(rendered, (text) => text.includes('opened'));
    expect(frame).toContain('"agent":"desk_http"');
  });

  it('r opens the runs of every agent', async () => {
    const rendered = renderIndex();
    await press(rendered, 'r');
    const frame = await waitForFrame(rendered, (text) => text.includes('opened'));
    expect(frame).toContain('opened {"screen":"runs"}');
  });

  it('K opens the kappa dashboard', async () => {
    const rendered = renderIndex();
    await press(rendered, 'K');
    const frame = await waitForFrame(rendered, (text) => text.includes('opened'));
    expect(frame).toContain('opened {"screen":"kappa"}');
  });

  it('in the whole app, Enter goes to the Runs screen and Esc comes back to the index', async () => {
    const rendered = renderApp({ screen: 'index' }, { services: { suitePath: suite.path, storePath, cwd: suite.path } });
    await waitForFrame(rendered, (text) => text.includes('booking'));
    await press(rendered, KEYS.enter);
    await waitForFrame(rendered, (text) => /^Runs/.test(text));
    await press(rendered, KEYS.escape);
    const frame = await waitForFrame(rendered, (text) => text.startsWith('Agents'));
    expect(lineOf(frame, 'booking')).toContain('50%');
  });

  it('without a suite in the folder shows the agents of the history and says why the suite did not load', () => {
    const empty = tempFolder({ 'notes.txt': 'no suite here' });
    try {
      const rendered = renderIndex({ suitePath: empty.path });
      const frame = rendered.lastFrame() ?? '';
      expect(frame.replace(/\n/g, '')).toContain(`suite did not load: ${empty.path}: no parley.yaml in this folder`);
      expect(frame).toContain('no suite · 3 of 3 agents');
      // Every agent of every suite in the history, with what the history knows: no kind, no count.
      expect(agentsShown(frame)).toEqual(['booking', 'desk_http', 'stranger']);
      expect(lineOf(frame, 'booking')).toMatch(/booking\s+—\s+\?\s+—\s+50%\s+failing/);
      expect(lineOf(frame, 'stranger')).toMatch(/stranger\s+—\s+\?\s+—\s+0%\s+failing/);
      expectFits(frame);
    } finally {
      empty.remove();
    }
  });

  it('says so when there is neither a suite nor a history, and q quits', async () => {
    const empty = tempFolder();
    try {
      const rendered = renderIndex({ suitePath: empty.path, storePath: join(empty.path, '.parley', 'parley.db') });
      const frame = rendered.lastFrame() ?? '';
      expect(frame).toContain('No agents: no suite loaded and no stored runs.');
      expect(frame).toContain('no suite · 0 of 0 agents');
      await press(rendered, KEYS.enter); // nothing to open
      expect(rendered.lastFrame()).not.toContain('opened');
      await press(rendered, 'q');
    } finally {
      empty.remove();
    }
  });
});
