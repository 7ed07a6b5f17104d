import { relative } from 'node:path';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

import type { ScenarioResult } from '@parley/core';
import { sendScenarioToCalibration } from '@parley/calibration';
import { acceptRerecording, rerecordingGap } from '@parley/runner';
import { openStore } from '@parley/store';
import type { KeyHint } from '../components/footer.js';
import { useServices } from '../tui-context.js';
import { DiffPanel } from './actions/diff-panel.js';
import { messageOf, readTriageFacts, suiteSettingsOf, type TriageFacts } from './actions/triage-facts.js';
import { useKeys } from '../components/keyboard.js';

export interface ScenarioActionsInput {
  runId: string;
  result: ScenarioResult;
  /** False while the screen itself reads a key (its reveal confirmation): the actions then ignore keys. */
  isActive: boolean;
}

export interface ScenarioActions {
  /** Appended to the screen's footer. */
  keys: KeyHint[];
  /** One status line: what the last action did, a question being asked, or the scenario's triage state. */
  message?: string;
  /** Shown instead of the screen's body (the diff). */
  panel?: ReactNode;
  /** True while the actions read keys the screen must not act on (q and Esc included). */
  capturesInput: boolean;
  /** The scenario's file, where the suite has it (re-read after an edit). */
  scenarioFile?: string;
}

/** What the actions are asking for, if anything: a yes/no for accepting, or the flaky note. */
type Prompt = { kind: 'accept' } | { kind: 'note'; text: string };

const NOTE_MAX = 200;
/** Characters of the note shown while it is typed (what fits after the question in 80 columns). */
const NOTE_SHOWN = 50;

/**
 * The triage actions of a scenario of a stored run:
 * - `a` accepts the run's re-recording as the suite's recording (after `y`),
 * - `d` shows or hides the re-recorded conversation's diff against the recording,
 * - `f` marks the scenario flaky with an optional note (reports then show it), or removes the mark,
 * - `c` sends the masked transcript to the calibration set as an unrated item,
 * - `e` opens the scenario file in $EDITOR.
 * Every rule behind them lives in the libraries (@parley/runner re-recordings, the store's flaky
 * marks, @parley/calibration); this hook only wires keys to them and says what happened.
 */
export function useScenarioActions({ runId, result, isActive }: ScenarioActionsInput): ScenarioActions {
  const services = useServices();
  const [generation, setGeneration] = useState(0);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [panelOpen, setPanelOpen] = useState(false);
  const [prompt, setPrompt] = useState<Prompt | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const scenarioId = result.scenario_id;
  const facts: TriageFacts = useMemo(
    () => readTriageFacts({ storePath: services.storePath, suitePath: services.suitePath, cwd: services.cwd, runId, scenarioId }),
    [services.storePath, services.suitePath, services.cwd, runId, scenarioId, generation],
  );
  const reload = () => setGeneration((current) => current + 1);
  const say = (text: string) => {
    if (mounted.current) setMessage(text);
  };
  const { rerecording, location, run, flakyMark } = facts;
  const suiteDir = location?.suiteDir ?? services.cwd;
  const shown = (file: string) => relative(suiteDir, file) || file;
  const pending = rerecording !== undefined && !rerecording.accepted;

  const toggleFlaky = () => {
    if (run === undefined) return say(`cannot mark flaky: ${facts.problem ?? 'no run'}`);
    if (flakyMark !== undefined) {
      if (withStore((store) => store.unmarkFlaky(run.suite, scenarioId))) say('flaky mark removed');
      return reload();
    }
    setPrompt({ kind: 'note', text: '' });
  };

  const markFlaky = (note: string) => {
    if (run === undefined) return;
    const markedAt = services.clock.now().toISOString();
    const marked = withStore((store) => store.markFlaky({ suite: run.suite, scenario_id: scenarioId, run_id: runId, marked_at: markedAt, note: note.trim() }));
    if (marked) say(`marked flaky on ${markedAt.slice(0, 10)}: reports of ${run.suite} show it`);
    reload();
  };

  /** Runs a write on the store (opened for it, closed after); false, with the reason said, when it failed. */
  const withStore = (action: (store: ReturnType<typeof openStore>) => unknown): boolean => {
    try {
      const store = openStore(services.storePath);
      try {
        action(store);
      } finally {
        store.close();
      }
      return true;
    } catch (error) {
      say(`cannot write the run history: ${messageOf(error)}`);
      return false;
    }
  };

  const askAccept = () => {
    if (rerecording === undefined) return say(noRerecording(facts));
    if (rerecording.accepted) return say(`already accepted: ${shown(rerecording.recordingFile)} is this run's recording`);
    const gap = rerecordingGap(result, judgeModeOf(facts));
    if (gap !== undefined) return say(`cannot accept: ${gap}; use --mode record`);
    setPrompt({ kind: 'accept' });
  };

  const accept = () => {
    if (rerecording === undefined) return;
    try {
      const outcome = acceptRerecording(rerecording, { result, ...(judgeModeOf(facts) !== undefined ? { judgeMode: judgeModeOf(facts) } : {}) });
      say(outcome.accepted ? `accepted: ${shown(outcome.file)} now holds this run's recording` : `cannot accept: ${outcome.reason}`);
    } catch (error) {
      say(`cannot accept: ${messageOf(error)}`);
    }
    reload();
  };

  const sendToCalibration = async () => {
    if (location === undefined) return say(`not sent: ${facts.problem ?? 'the suite is unknown'}`);
    setBusy(true);
    say('sending the masked transcript to the calibration set…');
    try {
      const outcome = await sendScenarioToCalibration({
        calibrationDir: services.calibrationDir,
        cwd: services.cwd,
        runId,
        result,
        suite: suiteSettingsOf(location),
        ...(location.scenario?.vertical !== undefined ? { vertical: location.scenario.vertical } : {}),
        env: services.env,
        now: services.clock.now(),
      });
      const file = relative(services.cwd, 'file' in outcome ? outcome.file : '') || services.calibrationDir;
      if (outcome.kind === 'added' && outcome.rubric !== undefined) say(`sent as ${outcome.id} (new set: edit ${relative(services.cwd, outcome.rubric)} before rating)`);
      else if (outcome.kind === 'added') say(`sent to calibration as ${outcome.id} in ${file}`);
      else if (outcome.kind === 'already') say(`already in the calibration set as ${outcome.id}`);
      else say(`not sent: ${outcome.reason}`);
    } catch (error) {
      say(`not sent: ${messageOf(error)}`);
    } finally {
      if (mounted.current) setBusy(false);
    }
  };

  const openEditor = async () => {
    const file = location?.scenarioFile;
    if (file === undefined) {
      return say(location ? `no file ${scenarioId}.yaml matches the suite's scenarios (${location.config.scenarios})` : `cannot open: ${facts.problem ?? 'the suite is unknown'}`);
    }
    setBusy(true);
    try {
      await services.openInEditor(file);
      say(`edited ${shown(file)}`);
      if (mounted.current) reload();
    } catch (error) {
      say(`cannot open the editor: ${messageOf(error)}`);
    } finally {
      if (mounted.current) setBusy(false);
    }
  };

  useKeys(
    (input, key) => {
      if (prompt?.kind === 'accept') {
        setPrompt(undefined);
        if (input === 'y') accept();
        else say('not accepted');
        return;
      }
      if (prompt?.kind === 'note') {
        if (key.return) {
          setPrompt(undefined);
          markFlaky(prompt.text);
        } else if (key.escape) {
          setPrompt(undefined);
          say('not marked flaky');
        } else if (key.backspace || key.delete) {
          setPrompt({ kind: 'note', text: prompt.text.slice(0, -1) });
        } else if (input !== '' && !key.ctrl && !key.meta) {
          setPrompt({ kind: 'note', text: (prompt.text + input).slice(0, NOTE_MAX) });
        }
        return;
      }
      if (input === 'a') askAccept();
      else if (input === 'd') {
        if (rerecording === undefined) say(noRerecording(facts));
        else setPanelOpen((open) => !open);
      } else if (input === 'f') toggleFlaky();
      else if (input === 'c') void sendToCalibration();
      else if (input === 'e') void openEditor();
    },
    { isActive: isActive && !busy },
  );

  let keys: KeyHint[];
  let shownMessage = message ?? stateMessage(facts);
  if (prompt?.kind === 'accept') {
    keys = [
      ['y', 'accept'],
      ['any other', 'cancel'],
    ];
    shownMessage = rerecording ? `Write this run's recording to ${shown(rerecording.recordingFile)}? (y/n)` : undefined;
  } else if (prompt?.kind === 'note') {
    keys = [
      ['Enter', 'mark flaky'],
      ['Esc', 'cancel'],
    ];
    // The end of a long note stays in view: the line is cut at the screen's width.
    const tail = prompt.text.length > NOTE_SHOWN ? `…${prompt.text.slice(1 - NOTE_SHOWN)}` : prompt.text;
    shownMessage = `Why flaky (optional): ${tail}█`;
  } else if (panelOpen && rerecording !== undefined) {
    keys = [...(pending ? ([['a', 'accept']] as const) : []), ['d', 'hide diff'], ['Esc', 'close'], ['q', 'quit']];
  } else {
    keys = [
      ...(pending ? ([['a', 'accept']] as const) : []),
      ...(rerecording !== undefined ? ([['d', 'diff']] as const) : []),
      ['f', flakyMark ? 'unflaky' : 'flaky'],
      ['c', 'to calibration'],
      ['e', 'edit'],
    ];
  }

  // The panel replaces the screen's body, status line included: it shows a question or what an
  // action did itself (the scenario's triage state is what the panel shows anyway).
  const panelMessage = prompt !== undefined ? shownMessage : message;
  const panel =
    panelOpen && rerecording !== undefined ? (
      <DiffPanel
        {...(panelMessage !== undefined ? { message: panelMessage } : {})}
        rerecording={rerecording}
        suiteDir={suiteDir}
        againstReplaced={run?.mode === 'record'}
        metadataOnly={result.metadata_only}
        isActive={isActive && !busy && prompt === undefined}
        onClose={() => setPanelOpen(false)}
      />
    ) : undefined;

  return {
    keys,
    ...(shownMessage !== undefined && panel === undefined ? { message: shownMessage } : {}),
    ...(panel !== undefined ? { panel } : {}),
    // While the editor has the terminal (or a send is under way) no key may act on the screen.
    capturesInput: panel !== undefined || prompt !== undefined || busy,
    ...(location?.scenarioFile !== undefined ? { scenarioFile: location.scenarioFile } : {}),
  };
}

/** The scenario's triage state when no action has spoken yet: its flaky mark and its re-recording. */
function stateMessage(facts: TriageFacts): string | undefined {
  const parts: string[] = [];
  if (facts.flakyMark) parts.push(`marked flaky in triage on ${facts.flakyMark.marked_at.slice(0, 10)}${facts.flakyMark.note ? `: ${facts.flakyMark.note}` : ''}`);
  if (facts.rerecording) parts.push(facts.rerecording.accepted ? 're-recorded in this run (accepted)' : 're-recorded in this run: d shows the diff, a accepts it');
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

function noRerecording(facts: TriageFacts): string {
  if (facts.run === undefined || facts.location === undefined) return `no re-recording: ${facts.problem ?? 'the run is unknown'}`;
  if (facts.run.mode === 'replay') return 'no re-recording: a replay run records nothing (live and record runs do)';
  return 'no re-recording: this run kept no recording of this scenario';
}

function judgeModeOf(facts: TriageFacts): string | undefined {
  const judge = facts.run?.options['judge'];
  return typeof judge === 'string' ? judge : undefined;
}
