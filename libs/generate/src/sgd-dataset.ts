import * as z from 'zod';

const SgdActionSchema = z.looseObject({
  act: z.string(),
  slot: z.string().default(''),
  values: z.array(z.string()).default([]),
});
export type SgdAction = z.output<typeof SgdActionSchema>;

const SgdTurnSchema = z.looseObject({
  speaker: z.enum(['USER', 'SYSTEM']),
  utterance: z.string(),
  /** Dialogue acts of the turn (the flattened form); the original files keep them per frame. */
  actions: z.array(SgdActionSchema).optional(),
  frames: z.array(z.looseObject({ service: z.string().optional(), actions: z.array(SgdActionSchema).default([]) })).optional(),
});
export type SgdTurn = z.output<typeof SgdTurnSchema>;

const SgdDialogueSchema = z.looseObject({
  dialogue_id: z.string().min(1),
  /** Extracts keep the dialogue's original file (`train/dialogues_029.json`): it names the split. */
  source_file: z.string().optional(),
  services: z.array(z.string()).default([]),
  turns: z.array(SgdTurnSchema).min(1),
});
export type SgdDialogue = z.output<typeof SgdDialogueSchema>;

/**
 * A file of Schema-Guided Dialogue (SGD) dialogues: the dataset's own `dialogues_NNN.json` (a list
 * of dialogues) or a list under `dialogues` with the dataset's `source` and `license` beside it.
 */
export const SgdFileSchema = z.union([
  z.array(SgdDialogueSchema),
  z.looseObject({ source: z.string().optional(), license: z.string().optional(), dialogues: z.array(SgdDialogueSchema) }),
]);
export type SgdFile = z.output<typeof SgdFileSchema>;

export function sgdDialogues(file: SgdFile): SgdDialogue[] {
  return Array.isArray(file) ? file : file.dialogues;
}

/** A turn's dialogue acts, wherever the file keeps them. */
export function turnActions(turn: SgdTurn): SgdAction[] {
  return turn.actions ?? (turn.frames ?? []).flatMap((frame) => frame.actions);
}
