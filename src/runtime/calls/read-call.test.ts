import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { roleAgent } from '../../testing/agent-catalog.js';
import { defineTool } from '../../tools/types.js';
import { run } from '../run-verbs.js';

/** A read-only tool whose answer JSON cannot hold, or that throws before it returns a promise. */
const odd = (behaviour: 'bigint' | 'cycle' | 'throws-at-once') =>
  defineTool({
    name: 'odd',
    description: 'Answers oddly.',
    inputSchema: { type: 'object' },
    sideEffect: false,
    execute: (): Promise<unknown> => {
      if (behaviour === 'throws-at-once') throw new Error('broke before starting');
      if (behaviour === 'bigint') return Promise.resolve({ n: 1n });
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      return Promise.resolve(cycle);
    },
  });

describe('a read-only call that fails in an odd way fails the call, not the run (scripted model)', () => {
  it.each(['bigint', 'cycle', 'throws-at-once'] as const)(
    '%s: the model is told the call failed, the trace is kept, and the run goes on',
    async (behaviour) => {
      const model = new ScriptedModel([
        { parts: [{ functionCall: { name: 'odd', args: {} } }] },
        { parts: [{ text: 'done' }] },
      ]);
      const result = await run(roleAgent('asker', ['odd']), {
        model,
        tools: [odd(behaviour)],
        inputs: { prompt: 'go' },
      });
      expect(result.terminate_reason).toBe('GOAL');
      const answer = model.requests[1]?.messages.at(-1)?.parts[0];
      expect(answer).toMatchObject({
        kind: 'function_response',
        response: { error: /odd failed/ },
      });
      expect(result.traces).toHaveLength(1);
      expect(result.traces[0]?.output).toMatch(/^Error: odd failed/);
    },
  );
});
