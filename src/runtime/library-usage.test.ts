import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  builtinTools,
  defineTool,
  loadDefinition,
  run,
  ScriptedModel,
  type RunOptions,
} from '../index.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-library-'));
  await writeFile(
    join(dir, 'counter.yaml'),
    'name: counter\ndescription: Counts words.\npromptConfig:\n  systemPrompt: Count the words.\ntoolConfig:\n  tools: [word_count]\n',
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// The README's "From code" example of a code tool and a chat agent, as a library caller writes it.
const wordCount = defineTool<{ text: string }>({
  name: 'word_count',
  description: 'Counts the words of a text.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  },
  sideEffect: false,
  async execute({ text }, { signal }) {
    signal.throwIfAborted();
    return { words: text.split(/\s+/).filter(Boolean).length };
  },
});

describe('the library, as the README shows it (scripted model)', () => {
  it('a definition naming a code tool loads with knownTools; a chat agent takes inputs.prompt', async () => {
    const tools = [...builtinTools, wordCount];
    const { definition } = await loadDefinition(join(dir, 'counter.yaml'), {
      knownTools: tools.map((tool) => tool.name),
    });
    const result = await run(definition, {
      inputs: { prompt: 'Count: one two' },
      tools,
      model: new ScriptedModel([
        { parts: [{ functionCall: { name: 'word_count', args: { text: 'one two' } } }] },
        { parts: [{ text: 'Two words.' }] },
      ]),
    });
    expect(result.final_message).toBe('Two words.');
    expect(result.traces).toEqual([
      expect.objectContaining({ tool: 'word_count', output: '{"words":2}' }),
    ]);
  });

  it('without knownTools, a definition naming the code tool says which tool is unknown', async () => {
    await expect(loadDefinition(join(dir, 'counter.yaml'))).rejects.toThrow(/word_count/);
  });

  it('a prompt at the top level of the options is a type error, not silently ignored', () => {
    // @ts-expect-error RunOptions has no `prompt`: a chat agent's prompt is `inputs.prompt`.
    const options: RunOptions = { prompt: 'hi' };
    expect(options).toBeDefined();
  });
});
