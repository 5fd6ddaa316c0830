import { describe, expect, it } from 'vitest';
import type { FunctionCallPart, Message, Part } from '../../model/types.js';
import { callIdsOf, withUniqueCallIds } from './call-ids.js';

const call = (id: string, name = 'send'): FunctionCallPart => ({
  kind: 'function_call',
  id,
  name,
  args: {},
});

describe('call ids are unique within a run', () => {
  it('renames a repeated id, a missing one and one reused from an earlier turn; keeps text in place', () => {
    const earlier: Message[] = [{ role: 'model', parts: [call('c0')] }];
    const parts: Part[] = [
      { kind: 'text', text: 'Sending both.' },
      call('c1'),
      call('c1'),
      call(''),
      call('c0'),
    ];
    const { parts: renamed, calls } = withUniqueCallIds(callIdsOf(earlier), parts);
    expect(calls.map((c) => c.id)).toEqual(['c1', 'c1~2', 'call_send', 'c0~2']);
    expect(renamed[0]).toEqual({ kind: 'text', text: 'Sending both.' });
    expect(renamed.slice(1)).toEqual(calls);
    // The original parts are not changed.
    expect((parts[2] as FunctionCallPart).id).toBe('c1');
  });

  it('leaves unique ids as they are (same objects)', () => {
    const parts: Part[] = [call('a'), call('b')];
    expect(withUniqueCallIds(new Set(), parts).parts).toEqual(parts);
    expect(withUniqueCallIds(new Set(), parts).parts[0]).toBe(parts[0]);
  });

  it('reads every call id of a conversation, from model messages only', () => {
    const messages: Message[] = [
      { role: 'model', parts: [call('a'), { kind: 'text', text: 'and' }, call('b')] },
      {
        role: 'user',
        parts: [{ kind: 'function_response', id: 'x', name: 'send', response: { output: 1 } }],
      },
      { role: 'model', parts: [call('c')] },
    ];
    expect([...callIdsOf(messages)]).toEqual(['a', 'b', 'c']);
    // A reused id from any earlier turn is renamed.
    expect(withUniqueCallIds(callIdsOf(messages), [call('a')]).calls[0]?.id).toBe('a~2');
  });
});
