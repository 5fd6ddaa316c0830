import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { echoTool } from '../../testing/test-tools.js';
import { roleAgent as def } from '../../testing/agent-catalog.js';
import { drive, NEW_RUN } from './executor.js';
import { memoryJournal } from './memory-journal.js';

describe('the memory journal (scripted model)', () => {
  it('holds the state the loop saved after its last turn', async () => {
    const journal = memoryJournal();
    const model = new ScriptedModel([
      { parts: [{ functionCall: { name: 'echo', args: { text: 'a' } } }] },
      { parts: [{ text: 'done' }] },
    ]);
    const outcome = await drive(def('a', ['echo']), NEW_RUN, {
      model,
      tools: [echoTool()],
      inputs: { prompt: 'go' },
      journal,
    });
    expect(outcome.status).toBe('finished');
    expect(journal.saved()?.turns).toBe(2);
    expect(journal.saved()?.finalText).toBe('done');
  });

  it('lets every claimed effect run: one process has nothing to take over', async () => {
    const journal = memoryJournal();
    const call = { kind: 'function_call' as const, id: 'c', name: 'send', args: {} };
    expect(await journal.claim(call)).toEqual({ kind: 'run' });
    await journal.settle(call, { ok: true, output: 1 });
    expect(await journal.claim(call)).toEqual({ kind: 'run' });
  });
});
