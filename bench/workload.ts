import { ScriptedModel, type ScriptedTurn } from '../src/model/scripted-model.js';
import type { AgentDefinition } from '../src/definition/types.js';
import { defineTool, type Tool } from '../src/tools/types.js';

/**
 * The benchmark workload, shared by the bare loop and Cadre so both do the
 * same work: a scripted model that calls a trivial tool for N-1 turns and
 * answers on the last one.
 */
export function workloadScript(
  turns: number,
  delayMs = 0,
): (request: unknown, index: number) => ScriptedTurn {
  return (_request, index) =>
    index < turns - 1
      ? { parts: [{ functionCall: { name: 'add', args: { a: index, b: 1 } } }], delayMs }
      : { parts: [{ text: 'done' }], delayMs };
}

export function workloadModel(turns: number, delayMs = 0): ScriptedModel {
  return new ScriptedModel(workloadScript(turns, delayMs), { recordRequests: false });
}

export const addTool: Tool = defineTool<{ a: number; b: number }>({
  name: 'add',
  description: 'Adds two numbers.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  sideEffect: false,
  execute: (args) => Promise.resolve(args.a + args.b),
});

export function workloadDefinition(turns: number): AgentDefinition {
  return {
    name: 'bench',
    description: 'Benchmark agent',
    promptConfig: { systemPrompt: 'Add numbers.' },
    toolConfig: { tools: ['add'] },
    runConfig: { max_turns: turns + 1 },
  };
}
