import { describe, expect, it } from 'vitest';
import type { RunState } from '../../contracts/run-state.js';
import type { FunctionCallPart } from '../../model/types.js';
import { memoryJournal } from '../loop/memory-journal.js';
import { childJournal } from './child-journal.js';

const call = (id: string): FunctionCallPart => ({
  kind: 'function_call',
  id,
  name: 'send',
  args: {},
});
const scope =
  (prefix: string) =>
  (c: FunctionCallPart): FunctionCallPart => ({ ...c, id: `${prefix}/${c.id}` });

describe('a child journal', () => {
  it('claims and settles under its own scope, so two children never share a call id', async () => {
    const claimed: string[] = [];
    const settled: string[] = [];
    const root = Object.assign(memoryJournal(), {
      claim: (c: FunctionCallPart) => (
        claimed.push(c.id),
        Promise.resolve({ kind: 'run' as const })
      ),
      settle: (c: FunctionCallPart) => (settled.push(c.id), Promise.resolve()),
    });
    const a = childJournal(root, scope('a'));
    const b = childJournal(root, scope('b'));
    await a.claim(call('call_1'));
    await b.claim(call('call_1'));
    await a.settle(call('call_1'), { ok: true, output: null });
    expect(claimed).toEqual(['a/call_1', 'b/call_1']);
    expect(settled).toEqual(['a/call_1']);
  });

  it('cannot overwrite, pause or end its root run: those stay the root’s', async () => {
    const root = memoryJournal();
    const rootState = { runId: 'root' } as RunState;
    await root.save(rootState, 'turn_end');
    const child = childJournal(root, scope('a'));
    await child.save({ runId: 'child' } as RunState, 'before_effects');
    expect(await child.pause({ runId: 'child' } as RunState, [])).toBeUndefined();
    expect(await child.finish({} as never)).toBeUndefined();
    expect(root.saved()).toBe(rootState);
    expect(root.kept()).toBeUndefined();
  });
});
