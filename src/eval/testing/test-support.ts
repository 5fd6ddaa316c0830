/** Fixtures for eval tests: a chat agent with two tools and per-row scripted model behaviour. */
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { AgentDefinition } from '../../definition/types.js';
import { echoTool, sendTool } from '../../testing/test-tools.js';
import type { EvalRow } from '../types.js';

export const assistant: AgentDefinition = {
  name: 'assistant',
  description: 'Answers questions, may look things up or send messages',
  promptConfig: { systemPrompt: 'Answer briefly.' },
  toolConfig: { tools: ['echo', 'send'] },
  runConfig: { max_turns: 5 },
};

export const tools = [echoTool(), sendTool()];

const say = (text: string): ScriptedTurn => ({
  parts: [{ text }],
  usage: { inputTokens: 20, outputTokens: 3 },
});
const use = (...names: string[]): ScriptedTurn => ({
  parts: names.map((name) => ({
    functionCall: { name, args: name === 'send' ? { to: 'ops' } : { text: 'q' } },
  })),
  usage: { inputTokens: 10, outputTokens: 2 },
});

export const rows: EvalRow[] = [
  {
    id: 'france',
    input: 'Capital of France?',
    expected: 'Paris',
    expected_tool: 'echo',
    source: 't:1',
  },
  {
    id: 'spain',
    input: 'Capital of Spain?',
    expected: 'Madrid',
    expected_tool: 'echo',
    source: 't:2',
  },
  { id: 'hello', input: 'Say hi', expected: 'hello', source: 't:3' },
  { id: 'notify', input: 'Tell ops', expected_tool: 'send', source: 't:4' },
];

/** What the model is scripted to do for each row (the scores below follow from it). */
export const scripts: Record<string, () => ScriptedTurn[]> = {
  france: () => [use('echo'), say('It is Paris.')],
  spain: () => [use('echo', 'send'), say('Barcelona.')],
  hello: () => [say('HELLO   there!')],
  notify: () => [use('echo'), say('Done.')],
};

export const scriptedModelFor = (row: EvalRow): ScriptedModel => {
  const script = scripts[row.id];
  if (!script) throw new Error(`no script for ${row.id}`);
  return new ScriptedModel(script());
};
