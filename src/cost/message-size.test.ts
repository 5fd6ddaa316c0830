import { describe, expect, it } from 'vitest';
import type { Message } from '../model/types.js';
import { jsonSize } from './json-size.js';
import { messageSize } from './message-size.js';

const messages: Message[] = [
  { role: 'user', parts: [{ kind: 'text', text: 'Add "two" and\nthree, é 中文 😀' }] },
  {
    role: 'model',
    parts: [
      { kind: 'thought', text: 'Thinking…', signature: 'c2ln'.repeat(50) },
      { kind: 'text', text: '' },
      {
        kind: 'function_call',
        id: 'call_1_1',
        name: 'add',
        args: { a: 1, b: 2.5, when: new Date(0) as unknown as string, skip: undefined },
        signature: 'sig',
      },
      { kind: 'function_call', id: 'call_1_2', name: 'add', args: {} },
    ],
  },
  {
    role: 'user',
    parts: [
      { kind: 'function_response', id: 'call_1_1', name: 'add', response: { output: [1, null] } },
      { kind: 'function_response', id: 'call_1_2', name: 'add', response: { error: 'no "b"' } },
      {
        kind: 'function_response',
        id: 'call_1_3',
        name: 'look',
        response: { output: 'a picture' },
        images: [{ mimeType: 'image/png', data: 'AAAA' }],
      },
    ],
  },
  { role: 'model', parts: [] },
];

describe('messageSize', () => {
  it.each(messages.map((m, i) => [i, m] as const))(
    'measures message %i as the generic walk does (signatures out, images counted)',
    (_i, message) => {
      expect(messageSize(message)).toEqual(jsonSize(message));
    },
  );

  it('falls back to the generic walk for a part of a shape the types do not name', () => {
    const odd = {
      role: 'user',
      parts: [{ kind: 'file', uri: 'x' }, 'loose'],
    } as unknown as Message;
    expect(messageSize(odd)).toEqual(jsonSize(odd));
  });

  it('counts only the fields a provider is sent: an unknown key on a known part is left out', () => {
    const extra = {
      role: 'user',
      parts: [{ kind: 'text', text: 'hi', note: 'kept by some caller' }],
    } as unknown as Message;
    const plain: Message = { role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
    expect(messageSize(extra)).toEqual(jsonSize(plain));
  });
});
