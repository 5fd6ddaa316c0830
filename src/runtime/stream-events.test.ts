import { describe, expect, it } from 'vitest';
import type { CadreEvent } from '../events/types.js';
import { ScriptedModel } from '../model/scripted-model.js';
import type { AgentDefinition } from '../definition/types.js';
import { echoTool } from '../testing/test-tools.js';
import { stream } from './run-verbs.js';

const chat: AgentDefinition = {
  name: 'chat',
  description: 'A chat agent',
  promptConfig: { systemPrompt: 'Be brief.' },
  toolConfig: { tools: ['echo'] },
};

describe('stream (scripted model responses)', () => {
  it('yields the events in order and ends with final_result carrying the result', async () => {
    const model = new ScriptedModel([
      {
        parts: [
          { thought: 'Let me echo.' },
          { functionCall: { name: 'echo', args: { text: 'a' } } },
        ],
      },
      { parts: [{ text: 'Hel' }, { text: 'lo' }] },
    ]);
    const events: CadreEvent[] = [];
    for await (const event of stream(chat, {
      model,
      tools: [echoTool()],
      inputs: { prompt: 'hi' },
    }))
      events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'run_started',
      'turn_started',
      'thought_delta',
      'tool_call',
      'tool_result',
      'turn_started',
      'text_delta',
      'text_delta',
      'final_result',
    ]);
    const result = events.at(-1)?.data.result as { final_message: string };
    expect(result.final_message).toBe('Hello');
    expect(
      events.every((e) => e.runId === events[0]?.runId && e.path[0] === 'chat' && e.depth === 0),
    ).toBe(true);
  });

  it('breaking out of the loop cancels the run', async () => {
    let calls = 0;
    const model = new ScriptedModel(() => {
      calls++;
      return { parts: [{ functionCall: { name: 'echo', args: { text: 'again' } } }], delayMs: 5 };
    });
    for await (const event of stream(chat, {
      model,
      tools: [echoTool()],
      inputs: { prompt: 'hi' },
    })) {
      if (event.type === 'tool_result') break;
    }
    const seen = calls;
    await new Promise((r) => setTimeout(r, 30));
    expect(calls).toBe(seen);
    expect(calls).toBeLessThanOrEqual(2);
  });

  it('throws validation errors raised before the run starts', async () => {
    const iterate = async () => {
      for await (const _event of stream(chat, { model: new ScriptedModel([]), inputs: {} })) {
        // no events expected
      }
    };
    await expect(iterate()).rejects.toThrow(/prompt: is required/);
  });
});
