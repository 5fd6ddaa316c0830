import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../definition/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { FunctionResponsePart, ModelRequest } from '../../model/types.js';
import { defineTool, type Tool } from '../../tools/types.js';
import { run } from '../run-verbs.js';
import { capOutput, capText, MAX_RESULT_CHARS } from './cap-output.js';

describe('capOutput', () => {
  it('keeps what fits as it is, structured output included', () => {
    expect(capText('short')).toBe('short');
    const object = { a: [1, 2, 3] };
    expect(capOutput(object)).toBe(object);
    expect(capOutput(42)).toBe(42);
  });

  it('cuts long text to the cap with a marker counting what was cut', () => {
    const text = capText('y'.repeat(8_000_000));
    expect(text.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    const kept = text.indexOf('\n');
    expect(text.slice(kept + 1)).toBe(
      `[… ${(8_000_000 - kept).toLocaleString('en-US')} characters cut …]`,
    );
  });

  it('structured output too large becomes its JSON, cut', () => {
    const capped = capOutput({ blob: 'z'.repeat(200_000) }, 1_000);
    expect(typeof capped).toBe('string');
    expect(String(capped).startsWith('{"blob":"zzz')).toBe(true);
    expect(String(capped).length).toBeLessThanOrEqual(1_000);
    expect(String(capped)).toMatch(/\[… [\d,]+ characters cut …\]$/);
  });
});

/** A code tool answering with whatever `make` builds, or failing with it. */
function bigTool(name: string, make: () => unknown, fail = false): Tool {
  return defineTool<Record<string, never>>({
    name,
    description: name,
    inputSchema: { type: 'object', properties: {} },
    sideEffect: false,
    execute: () => {
      if (fail) return Promise.reject(new Error(String(make())));
      return Promise.resolve(make());
    },
  });
}

const answers = (r: ModelRequest): FunctionResponsePart[] =>
  (r.messages.at(-1)?.parts ?? []).flatMap((p) => (p.kind === 'function_response' ? [p] : []));

describe('every tool result is capped where it becomes the model’s answer (scripted model responses)', () => {
  it('text, structured output and errors of code tools reach the model within the cap, marked', async () => {
    const tools = [
      bigTool('text_blob', () => 'a'.repeat(3_000_000)),
      bigTool('json_blob', () => ({ rows: Array.from({ length: 100_000 }, (_, i) => ({ i })) })),
      bigTool('loud_failure', () => 'e'.repeat(1_000_000), true),
    ];
    const agent: AgentDefinition = {
      name: 'a',
      description: 'a',
      promptConfig: {},
      toolConfig: { tools: tools.map((t) => t.name) },
    };
    const model = new ScriptedModel((r): ScriptedTurn =>
      answers(r).length > 0
        ? { parts: [{ text: 'done' }] }
        : { parts: tools.map((t) => ({ functionCall: { name: t.name, args: {} } })) },
    );
    const result = await run(agent, { model, tools, inputs: { prompt: 'go' } });
    expect(result.terminate_reason).toBe('GOAL');
    const got = answers(model.requests[1] as ModelRequest);
    expect(got.map((p) => p.name)).toEqual(['text_blob', 'json_blob', 'loud_failure']);
    for (const part of got) {
      const sent = 'output' in part.response ? part.response.output : part.response.error;
      expect(typeof sent).toBe('string');
      expect(String(sent).length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
      expect(String(sent)).toMatch(/\[… [\d,]+ characters cut …\]$/);
    }
    // The run's traces hold what the model was given, not the whole blob.
    expect(result.traces.every((t) => t.output.length <= MAX_RESULT_CHARS + 10)).toBe(true);
  });
});
