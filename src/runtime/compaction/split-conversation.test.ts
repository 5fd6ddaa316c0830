import { describe, expect, it } from 'vitest';
import type { Message } from '../../model/types.js';
import { historyCut, isSafeCut, turnCut } from './plan-compaction.js';
import { foldedConversation, SUMMARY_MARKER } from './split-conversation.js';

const text = (role: Message['role'], t: string): Message => ({
  role,
  parts: [{ kind: 'text', text: t }],
});

/** A model turn with `n` parallel calls, and the message answering them. */
const turn = (at: number, n: number): Message[] => {
  const ids = Array.from({ length: n }, (_, i) => `c${at}_${i}`);
  return [
    {
      role: 'model',
      parts: ids.map((id) => ({ kind: 'function_call', id, name: 'echo', args: {} })),
    },
    {
      role: 'user',
      parts: ids.map((id) => ({
        kind: 'function_response',
        id,
        name: 'echo',
        response: { output: 'ok' },
      })),
    },
  ];
};

/** Every answer's call is in the message right before it. */
const paired = (messages: readonly Message[]): boolean =>
  messages.every((m, i) =>
    m.parts.every(
      (p) =>
        p.kind !== 'function_response' ||
        (messages[i - 1]?.parts ?? []).some((q) => q.kind === 'function_call' && q.id === p.id),
    ),
  );

describe('where a conversation is cut', () => {
  it('never splits a call from its result, whatever the turns and keepTurns', () => {
    for (let turns = 1; turns <= 6; turns++) {
      const messages = [
        text('user', 'Do it.'),
        ...Array.from({ length: turns }, (_, i) => turn(i, (i % 3) + 1)).flat(),
      ];
      for (let keep = 1; keep <= 7; keep++) {
        const cut = turnCut(messages, keep);
        if (cut === 0) continue;
        expect(isSafeCut(messages, cut)).toBe(true);
        const folded = foldedConversation(messages, cut, 'note', 'Do it.');
        expect(paired(folded)).toBe(true);
        expect(folded[0]?.role).toBe('user');
      }
    }
  });

  it('refuses a cut between a call and its answer', () => {
    const messages = [text('user', 'Go.'), ...turn(1, 2), ...turn(2, 1)];
    expect(isSafeCut(messages, 2)).toBe(false);
    expect(isSafeCut(messages, 3)).toBe(true);
  });

  it('folds a history only once it holds half a window more', () => {
    const history = Array.from({ length: 29 }, (_, i) => text(i % 2 ? 'model' : 'user', `m${i}`));
    expect(historyCut([...history, text('user', 'now')], 20)).toBe(0);
    const longer = [...history, text('model', 'm29'), text('user', 'm30')];
    expect(historyCut([...longer, text('user', 'now')], 20)).toBe(11);
  });

  it('merges the note into a kept user message instead of sending two in a row', () => {
    const messages = [text('user', 'a'), text('model', 'b'), text('user', 'c'), text('model', 'd')];
    const folded = foldedConversation(messages, 2, 'summary', undefined);
    expect(folded).toHaveLength(2);
    const note = folded[0]?.parts[0];
    expect(note?.kind === 'text' && note.text).toBe(`${SUMMARY_MARKER}\nsummary`);
  });
});
