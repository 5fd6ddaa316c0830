import { describe, expect, it } from 'vitest';
import type { FunctionCallPart, Message, Part } from '../../model/types.js';
import { withUniqueCallIds } from './call-ids.js';

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
    const { parts: renamed, calls } = withUniqueCallIds(earlier, parts);
    expect(calls.map((c) => c.id)).toEqual(['c1', 'c1~2', 'call_send', 'c0~2']);
    expect(renamed[0]).toEqual({ kind: 'text', text: 'Sending both.' });
    expect(renamed.slice(1)).toEqual(calls);
    // The original parts are not changed.
    expect((parts[2] as FunctionCallPart).id).toBe('c1');
  });

  it('leaves unique ids as they are (same objects)', () => {
    const parts: Part[] = [call('a'), call('b')];
    expect(withUniqueCallIds([], parts).parts).toEqual(parts);
    expect(withUniqueCallIds([], parts).parts[0]).toBe(parts[0]);
  });
});
