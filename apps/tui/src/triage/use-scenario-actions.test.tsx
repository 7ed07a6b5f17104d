import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Text } from 'ink';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, type ScenarioResult } from '@parley/core';
import { loadCalibrationSet, loadRubric } from '@parley/calibration';
import { openStore } from '@parley/store';
import { ScreenFrame } from '../components/screen-frame.js';
import type { TuiServices } from '../tui-context.js';
import { KEYS, NavigationProvider, press, renderApp, renderWithProviders, waitForFrame } from '../test-support/render-screen.js';
import { createRerecordedRun, NEW_REPLY, OLD_REPLY, PRIVATE_SECRET, type RerecordedRun } from './actions/test-support/rerecorded-run.js';
import { overflow } from './test-support/triage-store.js';
import { useScenarioActions } from './use-scenario-actions.js';

/** A screen that shows only what the hook gives, the way the scenario screen uses it. */
function Harness({ runId, result }: { runId: string; result: ScenarioResult }) {
  const actions = useScenarioActions({ runId, result, isActive: true });
  return (
    <ScreenFrame title={`Harness ${result.scenario_id}`} keys={actions.keys} backKeys={!actions.capturesInput}>
      {actions.message ? <Text wrap="truncate-end">{actions.message}</Text> : null}
      {actions.panel ?? <Text>BODY OF THE SCREEN</Text>}
    </ScreenFrame>
  );
}

/** Event-loop turns a diff may take: the first one loads the `diff` module. */
const DIFF_TURNS = 2_000;

describe('useScenarioActions', () => {
  // The diff module is loaded on first use (headless runs never load it); load it once up front.
  beforeAll(async () => {
    await import('diff');
  });
  let fixture: RerecordedRun;
  let edited: string[];
  beforeEach(() => {
    fixture = createRerecordedRun();
    edited = [];
  });
  afterEach(() => fixture.remove());

  function render(id: 'happy' | 'private' | 'cached', runId = 'run-live', services: Partial<TuiServices> = {}) {
    return renderWithProviders(
      <NavigationProvider start={{ screen: 'index' }}>
        <Harness runId={runId} result={fixture.result(id)} />
      </NavigationProvider>,
      {
        services: {
          cwd: fixture.folder,
          storePath: fixture.storePath,
          suitePath: fixture.suiteDir,
          calibrationDir: fixture.calibrationDir,
          clock: manualClock(new Date('2026-11-26T10:00:00Z')),
          // The editor adds a comment: a real change to the file.
          openInEditor: async (file) => {
            edited.push(file);
            appendFileSync(file, '# looked at in triage\n');
          },
          ...services,
        },
      },
    );
  }

  const fits = (frame: string) => expect(overflow(frame)).toEqual({ wide: [], rows: 0 });

  it('shows its keys and the re-recording in the footer and status line, within 80×24', async () => {
    const rendered = render('happy');
    const frame = await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    for (const hint of ['a  accept', 'd  diff', 'f  flaky', 'c  to calibration', 'e  edit', 'q  quit']) expect(frame).toContain(hint);
    expect(frame).toContain('re-recorded in this run: d shows the diff, a accepts it');
    fits(frame);
  });

  it('d shows the diff of the new conversation against the recording; Esc closes it, q quits', async () => {
    const rendered = render('happy');
    await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    await press(rendered, 'd');
    let frame = await waitForFrame(rendered, (text) => text.includes('+1 −1'), DIFF_TURNS);
    expect(frame).toContain('New conversation vs recordings/happy.jsonl: +1 −1');
    expect(frame).toContain(`- assistant: ${OLD_REPLY}`);
    expect(frame).toContain(`+ assistant: ${NEW_REPLY}`);
    expect(frame).toContain('Esc  close');
    expect(frame).toContain('q  quit');
    expect(frame).not.toContain('BODY OF THE SCREEN');
    fits(frame);

    await press(rendered, KEYS.escape);
    frame = await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    expect(frame).not.toContain('+1 −1');
    await press(rendered, 'd');
    await waitForFrame(rendered, (text) => text.includes('+1 −1'), DIFF_TURNS);
    // q quits the TUI from inside the panel too: nothing answers afterwards, not even Esc.
    // (Ink clears its output when the app exits.)
    await press(rendered, 'q', KEYS.escape, 'd');
    expect(rendered.lastFrame() ?? '').not.toContain('BODY OF THE SCREEN');
    expect(rendered.lastFrame() ?? '').not.toContain('+1 −1');
  });

  it('a asks first; n keeps the recording, y writes the run’s recording over it', async () => {
    const rendered = render('happy');
    await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    const before = fixture.suiteRecording('happy');

    await press(rendered, 'a');
    let frame = await waitForFrame(rendered, (text) => text.includes("Write this run's recording to recordings/happy.jsonl? (y/n)"));
    expect(frame).toContain('y  accept');
    await press(rendered, 'n');
    await waitForFrame(rendered, (text) => text.includes('not accepted'));
    expect(fixture.suiteRecording('happy')).toBe(before);

    await press(rendered, 'a');
    await waitForFrame(rendered, (text) => text.includes("Write this run's recording"));
    await press(rendered, 'y');
    frame = await waitForFrame(rendered, (text) => text.includes('accepted: recordings/happy.jsonl now holds'));
    expect(fixture.suiteRecording('happy')).toBe(fixture.keptRecording('happy'));
    expect(fixture.suiteRecording('happy')).toContain(NEW_REPLY);
    expect(frame).not.toContain('a  accept');

    await press(rendered, 'd');
    frame = await waitForFrame(rendered, (text) => text.includes('The new conversation is the same'), DIFF_TURNS);
    expect(frame).toContain('accepted');
  });

  it('accepts from inside the diff panel, asking there', async () => {
    const rendered = render('happy');
    await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    await press(rendered, 'd');
    await waitForFrame(rendered, (text) => text.includes('+1 −1'), DIFF_TURNS);
    await press(rendered, 'a');
    let frame = await waitForFrame(rendered, (text) => text.includes("Write this run's recording to recordings/happy.jsonl? (y/n)"));
    expect(frame).toContain(`+ assistant: ${NEW_REPLY}`); // the question is asked over the diff
    await press(rendered, 'y');
    frame = await waitForFrame(rendered, (text) => text.includes('The new conversation is the same'), DIFF_TURNS);
    expect(frame).toContain('accepted: recordings/happy.jsonl now holds');
    expect(fixture.suiteRecording('happy')).toBe(fixture.keptRecording('happy'));
    fits(frame);
  });

  it('refuses to accept a recording whose judge verdicts came from the cache', async () => {
    const rendered = render('cached');
    await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    const before = fixture.suiteRecording('cached');
    await press(rendered, 'a');
    const frame = await waitForFrame(rendered, (text) => text.includes('cannot accept: conversation_judge came from the judge cache; use --mode record'));
    fits(frame);
    await press(rendered, 'y');
    expect(fixture.suiteRecording('cached')).toBe(before);
  });

  it('f marks the scenario flaky with a note, kept in the store; f again removes the mark', async () => {
    const rendered = render('happy');
    await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    await press(rendered, 'f');
    await waitForFrame(rendered, (text) => text.includes('Why flaky (optional)'));
    await press(rendered, ...'judge wavers q'.split(''), KEYS.backspace, KEYS.backspace);
    let frame = await waitForFrame(rendered, (text) => text.includes('Why flaky (optional): judge wavers█'));
    expect(frame).toContain('Enter  mark flaky');
    await press(rendered, KEYS.enter);
    frame = await waitForFrame(rendered, (text) => text.includes('marked flaky on 2026-11-26: reports of spa show it'));
    expect(frame).toContain('f  unflaky');

    const store = openStore(fixture.storePath);
    expect(store.flakyMarks('spa')).toEqual([{ suite: 'spa', scenario_id: 'happy', run_id: 'run-live', marked_at: '2026-11-26T10:00:00.000Z', note: 'judge wavers' }]);
    store.close();

    await press(rendered, 'f');
    frame = await waitForFrame(rendered, (text) => text.includes('flaky mark removed'));
    expect(frame).toContain('f  flaky');
    const after = openStore(fixture.storePath);
    expect(after.flakyMarks('spa')).toEqual([]);
    after.close();
  });

  it('shows an earlier flaky mark when the scenario opens, and Esc cancels a new note', async () => {
    const store = openStore(fixture.storePath);
    store.markFlaky({ suite: 'spa', scenario_id: 'cached', run_id: 'run-old', marked_at: '2026-11-20T08:00:00.000Z', note: 'simulator' });
    store.close();
    const marked = render('cached');
    await waitForFrame(marked, (text) => text.includes('marked flaky in triage on 2026-11-20: simulator'));

    const rendered = render('happy');
    await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    await press(rendered, 'f', ...'a very long note about the simulator that keeps asking twice'.split(''));
    const typing = await waitForFrame(rendered, (text) => text.includes('asking twice█'));
    fits(typing);
    await press(rendered, KEYS.escape);
    await waitForFrame(rendered, (text) => text.includes('not marked flaky'));
    const after = openStore(fixture.storePath);
    expect(after.flakyMark('spa', 'happy')).toBeUndefined();
    after.close();
  });

  it('c sends the masked transcript to the calibration set once; a new set gets a starter rubric, so it can be rated', async () => {
    const rendered = render('happy');
    await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    await press(rendered, 'c');
    await waitForFrame(rendered, (text) => text.includes('sent as cal-2026-11-001 (new set: edit calibration/rubric.md before rating)'));
    expect(loadRubric(join(fixture.calibrationDir, 'rubric.md')).version).toBe('1.0.0');
    const file = join(fixture.calibrationDir, 'human_labelled.yaml');
    const set = loadCalibrationSet(file);
    expect(set.items).toHaveLength(1);
    expect(set.items[0]).toMatchObject({ source: 'scenario:happy', language: 'sw', ratings: [] });
    expect(set.items[0]!.transcript[0]).toEqual({ role: 'user', content: 'Habari! Mimi ni <name>, nataka massage Jumamosi.' });
    expect(readFileSync(file, 'utf8')).not.toContain('Zawadi');

    await press(rendered, 'c');
    await waitForFrame(rendered, (text) => text.includes('already in the calibration set as cal-2026-11-001'));
    expect(loadCalibrationSet(file).items).toHaveLength(1);
  });

  it('c refuses a metadata_only scenario and writes nothing', async () => {
    const rendered = render('private');
    await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    await press(rendered, 'c');
    const frame = await waitForFrame(rendered, (text) => text.includes('not sent: metadata_only'));
    expect(frame).not.toContain(PRIVATE_SECRET);
    expect(existsSync(join(fixture.calibrationDir, 'human_labelled.yaml'))).toBe(false);
  });

  it('d on a metadata_only scenario shows nothing of the conversation until r reveals it', async () => {
    const rendered = render('private');
    await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    await press(rendered, 'd');
    let frame = await waitForFrame(rendered, (text) => text.includes('metadata_only: its conversation is not shown'));
    expect(frame).not.toContain(PRIVATE_SECRET);
    expect(frame).not.toContain('Pole');
    await press(rendered, 'r');
    frame = await waitForFrame(rendered, (text) => text.includes('+1 −1'), DIFF_TURNS);
    expect(frame).toContain(`user: ${PRIVATE_SECRET}`);
    expect(frame).toContain('+ assistant: Pole sana, piga 1195.');
  });

  it('e opens the scenario file in the editor and says so when the editor exits', async () => {
    const rendered = render('happy');
    await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    await press(rendered, 'e');
    await waitForFrame(rendered, (text) => text.includes('edited scenarios/happy.yaml'));
    expect(edited).toEqual([join(fixture.suiteDir, 'scenarios', 'happy.yaml')]);
  });

  it('e then leaving the editor without a change (:q) says nothing changed, not "edited"', async () => {
    const rendered = render('happy', 'run-live', {
      openInEditor: async (file) => {
        edited.push(file);
      },
    });
    await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    await press(rendered, 'e');
    const frame = await waitForFrame(rendered, (text) => text.includes('no change to scenarios/happy.yaml'));
    expect(frame).not.toContain('edited');
    expect(edited).toHaveLength(1);
  });

  it('lets no key act on the screen while the editor has the terminal', async () => {
    let closeEditor: () => void = () => {};
    const rendered = render('happy', 'run-live', {
      openInEditor: (file) => {
        edited.push(file);
        return new Promise<void>((resolve) => {
          closeEditor = () => {
            appendFileSync(file, '# changed\n');
            resolve();
          };
        });
      },
    });
    await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    await press(rendered, 'e', 'q', 'f', 'e');
    // q did not quit (the app still renders below) and f did not open the note prompt.
    expect(rendered.lastFrame()).not.toContain('Why flaky');
    expect(edited).toHaveLength(1);
    closeEditor();
    await waitForFrame(rendered, (text) => text.includes('edited scenarios/happy.yaml'));
  });

  it('says why when the editor cannot start', async () => {
    const rendered = render('happy', 'run-live', {
      openInEditor: async () => {
        throw new Error('spawn nano ENOENT');
      },
    });
    await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    await press(rendered, 'e');
    await waitForFrame(rendered, (text) => text.includes('cannot open the editor: spawn nano ENOENT'));
  });

  it('still marks flaky when the suite is gone, and says why the other actions cannot work', async () => {
    rmSync(fixture.suiteDir, { recursive: true, force: true });
    const rendered = render('happy', 'run-live', { suitePath: join(fixture.folder, 'elsewhere') });
    let frame = await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    expect(frame).not.toContain('d  diff');
    await press(rendered, 'e');
    frame = await waitForFrame(rendered, (text) => text.includes('cannot open: cannot read the suite of run run-live'));
    expect(edited).toEqual([]);
    await press(rendered, 'c');
    await waitForFrame(rendered, (text) => text.includes('not sent: cannot read the suite of run run-live'));
    await press(rendered, 'f', KEYS.enter);
    await waitForFrame(rendered, (text) => text.includes('marked flaky on 2026-11-26'));
    const store = openStore(fixture.storePath);
    expect(store.flakyMark('spa', 'happy')).toMatchObject({ run_id: 'run-live', note: '' });
    store.close();
  });

  it('says so when no scenario file has the scenario’s name', async () => {
    rmSync(join(fixture.suiteDir, 'scenarios', 'happy.yaml'));
    const rendered = render('happy');
    await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    await press(rendered, 'e');
    await waitForFrame(rendered, (text) => text.includes("no file happy.yaml matches the suite's scenarios (scenarios/**/*.yaml)"));
    expect(edited).toEqual([]);
  });

  it('offers no accept or diff for a replay run, and says why when asked', async () => {
    const rendered = render('happy', 'run-replay');
    let frame = await waitForFrame(rendered, (text) => text.includes('BODY OF THE SCREEN'));
    expect(frame).not.toContain('a  accept');
    expect(frame).not.toContain('d  diff');
    expect(frame).toContain('f  flaky');
    await press(rendered, 'd');
    frame = await waitForFrame(rendered, (text) => text.includes('no re-recording: a replay run records nothing'));
    await press(rendered, 'a');
    await waitForFrame(rendered, (text) => text.includes('no re-recording'));
    expect(fixture.suiteRecording('happy')).toContain(OLD_REPLY);
  });

  it('works inside the scenario screen: the diff replaces its body within 80×24, Esc returns to it', async () => {
    const rendered = renderApp(
      { screen: 'scenario', runId: 'run-live', scenarioId: 'happy' },
      { services: { cwd: fixture.folder, storePath: fixture.storePath, suitePath: fixture.suiteDir, calibrationDir: fixture.calibrationDir } },
    );
    let frame = await waitForFrame(rendered, (text) => text.includes('re-recorded in this run'));
    expect(frame).toContain('d  diff');
    fits(frame);
    await press(rendered, 'd');
    frame = await waitForFrame(rendered, (text) => text.includes('+1 −1'), DIFF_TURNS);
    expect(frame).toContain(`+ assistant: ${NEW_REPLY}`);
    fits(frame);
    // The footer shows the diff's keys, not the scenario's (t and m do nothing over the diff).
    const footer = frame.split('\n').slice(-2).join('\n');
    expect(footer).toMatch(/↑↓\s+scroll\s+a\s+accept\s+d\s+hide diff\s+Esc\s+close/);
    expect(footer).not.toMatch(/t\s+transcript/);
    await press(rendered, KEYS.escape);
    frame = await waitForFrame(rendered, (text) => text.includes('d  diff'));
    expect(frame).not.toContain('+1 −1');
    expect(frame).toContain('Scenario happy');
  });

  it('from 120 columns shows the diff side by side, each line cut but the selected one (↑↓), shown whole', async () => {
    const rendered = renderApp(
      { screen: 'scenario', runId: 'run-live', scenarioId: 'happy' },
      { services: { cwd: fixture.folder, storePath: fixture.storePath, suitePath: fixture.suiteDir, calibrationDir: fixture.calibrationDir }, size: { columns: 120, rows: 30 } },
    );
    await waitForFrame(rendered, (text) => text.includes('re-recorded in this run'));
    await press(rendered, 'd');
    const frame = await waitForFrame(rendered, (text) => text.includes('+1 −1'), DIFF_TURNS);
    expect(frame).toContain('recording left, new conversation right');
    const changed = (text: string) => text.split('\n').find((line) => line.includes('- assistant:') && line.includes('│ + assistant:'));
    expect(changed(frame)).toBeDefined();
    for (const line of frame.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(120);
    // Move the selection down to the changed line: it is marked and shown whole.
    // One ↓ at a time, each waited for (the marked line moves), until the changed line is selected.
    const markedLine = (text: string) => text.split('\n').findIndex((line) => line.startsWith('> '));
    let selected = frame;
    for (let step = 0; step < 20 && !changed(selected)?.startsWith('> '); step += 1) {
      const before = markedLine(selected);
      await press(rendered, KEYS.down);
      selected = await waitForFrame(rendered, (text) => markedLine(text) > before);
    }
    expect(changed(selected)).toMatch(/^> - assistant:/);
    expect(selected).toContain(OLD_REPLY.slice(-12));
    expect(selected).toContain(NEW_REPLY.slice(-12));
  });
});
