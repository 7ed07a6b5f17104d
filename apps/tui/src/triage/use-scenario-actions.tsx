import { relative } from 'node:path';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

import type { ScenarioResult } from '@parley/core';
import type { KeyHint } from '../components/footer.js';
import { useKeys } from '../components/keyboard.js';
import { useServices } from '../tui-context.js';
import { accept, askAccept, noRerecording } from './actions/accept-action.js';
import type { ActionContext } from './actions/action-context.js';
import { actionFooter } from './actions/action-footer.js';
import { promptKey, type ActionPrompt } from './actions/action-prompt.js';
import { sendToCalibration } from './actions/calibration-action.js';
import { DiffPanel } from './actions/diff-panel.js';
import { openEditor } from './actions/editor-action.js';
import { markFlaky, toggleFlaky } from './actions/flaky-action.js';
import { readTriageFacts, type TriageFacts } from './actions/triage-facts.js';

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

/**
 * The triage actions of a scenario of a stored run, one module each under `actions/`:
 * - `a` accepts the run's re-recording as the suite's recording (after `y`: accept-action.ts),
 * - `d` shows or hides the re-recorded conversation's diff against the recording (diff-panel.tsx),
 * - `f` marks the scenario flaky with an optional note (reports then show it), or removes the mark (flaky-action.ts),
 * - `c` sends the masked transcript to the calibration set as an unrated item (calibration-action.ts),
 * - `e` opens the scenario file in $EDITOR (editor-action.ts).
 * Every rule behind them lives in the libraries (@parley/runner re-recordings, the store's flaky
 * marks, @parley/calibration); this hook holds the screen's state and wires keys to the actions.
 */
export function useScenarioActions({ runId, result, isActive }: ScenarioActionsInput): ScenarioActions {
  const services = useServices();
  const [generation, setGeneration] = useState(0);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [panelOpen, setPanelOpen] = useState(false);
  const [prompt, setPrompt] = useState<ActionPrompt | undefined>(undefined);
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
  const suiteDir = facts.location?.suiteDir ?? services.cwd;
  const context: ActionContext = {
    services,
    runId,
    result,
    facts,
    say: (text) => {
      if (mounted.current) setMessage(text);
    },
    reload: () => setGeneration((current) => current + 1),
    shown: (file) => relative(suiteDir, file) || file,
    isMounted: () => mounted.current,
    setBusy,
  };

  useKeys(
    (input, key) => {
      if (prompt !== undefined) {
        const step = promptKey(prompt, input, key);
        setPrompt(step.prompt);
        if (step.then?.kind === 'accept') accept(context);
        else if (step.then?.kind === 'not_accepted') context.say('not accepted');
        else if (step.then?.kind === 'mark') markFlaky(context, step.then.note);
        else if (step.then?.kind === 'not_marked') context.say('not marked flaky');
        return;
      }
      if (input === 'a') askAccept(context, () => setPrompt({ kind: 'accept' }));
      else if (input === 'd') {
        if (facts.rerecording === undefined) context.say(noRerecording(facts));
        else setPanelOpen((open) => !open);
      } else if (input === 'f') toggleFlaky(context, () => setPrompt({ kind: 'note', text: '' }));
      else if (input === 'c') void sendToCalibration(context);
      else if (input === 'e') void openEditor(context);
    },
    { isActive: isActive && !busy },
  );

  const footer = actionFooter({ facts, prompt, panelOpen, message, shown: context.shown });
  // The panel replaces the screen's body, status line included: it shows a question or what an
  // action did itself (the scenario's triage state is what the panel shows anyway).
  const panelMessage = prompt !== undefined ? footer.message : message;
  const panel =
    panelOpen && facts.rerecording !== undefined ? (
      <DiffPanel
        {...(panelMessage !== undefined ? { message: panelMessage } : {})}
        rerecording={facts.rerecording}
        suiteDir={suiteDir}
        againstReplaced={facts.run?.mode === 'record'}
        metadataOnly={result.metadata_only}
        isActive={isActive && !busy && prompt === undefined}
        onClose={() => setPanelOpen(false)}
      />
    ) : undefined;

  return {
    keys: footer.keys,
    ...(footer.message !== undefined && panel === undefined ? { message: footer.message } : {}),
    ...(panel !== undefined ? { panel } : {}),
    // While the editor has the terminal (or a send is under way) no key may act on the screen.
    capturesInput: panel !== undefined || prompt !== undefined || busy,
    ...(facts.location?.scenarioFile !== undefined ? { scenarioFile: facts.location.scenarioFile } : {}),
  };
}
