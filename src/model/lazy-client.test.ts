import { expect, test } from 'vitest';
import { lazyClient } from './lazy-client.js';
import { ScriptedModel } from './scripted-model.js';
import type { ModelClient, ModelRequest } from './types.js';

const request: ModelRequest = {
  tools: [],
  config: {},
  model: 'm',
  messages: [{ role: 'user', parts: [{ kind: 'text', text: 'hi' }] }],
};

async function textOf(client: ModelClient): Promise<string> {
  let text = '';
  for await (const chunk of client.generate(request, new AbortController().signal))
    if (chunk.type === 'text') text += chunk.text;
  return text;
}

test('a lazy client loads its client on the first turn only, and answers as it (scripted model)', async () => {
  let loads = 0;
  const client = lazyClient('scripted', async () => {
    loads++;
    return new ScriptedModel([{ parts: [{ text: 'one' }] }, { parts: [{ text: 'two' }] }]);
  });
  expect(loads).toBe(0);
  expect(client.provider).toBe('scripted');
  expect(await textOf(client)).toBe('one');
  expect(await textOf(client)).toBe('two');
  expect(loads).toBe(1);
});

test('a lazy client whose load failed tries again on the next turn (scripted model)', async () => {
  let loads = 0;
  const client = lazyClient('scripted', async () => {
    if (++loads === 1) throw new Error('not installed');
    return new ScriptedModel([{ parts: [{ text: 'loaded' }] }]);
  });
  await expect(textOf(client)).rejects.toThrow('not installed');
  expect(await textOf(client)).toBe('loaded');
});
