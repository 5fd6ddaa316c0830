import { describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { FunctionCallPart, FunctionResponsePart } from '../../model/types.js';
import { echoTool } from '../../testing/test-tools.js';
import { roleAgent } from '../../testing/agent-catalog.js';
import { run } from '../run-verbs.js';

const echo = (id: string): ScriptedTurn => ({
  parts: [{ functionCall: { name: 'echo', args: { text: 'hi' }, id } }],
});

describe('call ids stay unique across a run (scripted model that reuses its ids)', () => {
  it('a model repeating one id on every turn, and twice in one turn, has each call renamed and answered under its new id', async () => {
    const script: ScriptedTurn[] = [
      echo('same'),
      echo('same'),
      {
        parts: [
          { functionCall: { name: 'echo', args: { text: 'a' }, id: 'same' } },
          { functionCall: { name: 'echo', args: { text: 'b' }, id: 'same' } },
        ],
      },
      { parts: [{ text: 'done' }] },
    ];
    const model = new ScriptedModel(script);
    const result = await run(roleAgent('echoer', ['echo']), {
      model,
      tools: [echoTool()],
      inputs: { prompt: 'go' },
    });
    expect(result.terminate_reason).toBe('GOAL');
    const last = model.requests.at(-1)!.messages;
    const callIds = last.flatMap((m) =>
      m.parts.filter((p): p is FunctionCallPart => p.kind === 'function_call').map((p) => p.id),
    );
    const answerIds = last.flatMap((m) =>
      m.parts
        .filter((p): p is FunctionResponsePart => p.kind === 'function_response')
        .map((p) => p.id),
    );
    expect(callIds).toEqual(['same', 'same~2', 'same~3', 'same~4']);
    expect(answerIds).toEqual(callIds);
  });
});
