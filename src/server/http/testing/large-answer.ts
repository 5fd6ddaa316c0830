import type { ScriptedTurn } from '../../../model/scripted-model.js';

/** One piece of a large answer, about 1 KB. */
export const PIECE = 'The quick brown fox jumps over the lazy dog. '.repeat(23).slice(0, 1_000);
export const PIECES = 10_000;
/** About 10 MB of answer. */
export const ANSWER = PIECE.repeat(PIECES);

/** The whole answer in one scripted turn, streamed the way providers do: many small pieces. */
export const largeAnswerTurn = (): ScriptedTurn => ({
  parts: Array.from({ length: PIECES }, () => ({ text: PIECE })),
});
