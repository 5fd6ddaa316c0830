import { describe, expect, it } from 'vitest';
import type { SpawnRequest } from '../../contracts/agent.js';
import type { RunResult } from '../../contracts/run-result.js';
import type { AgentDefinition } from '../../definition/types.js';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
} from '../../model/types.js';
import { codeReplay } from './code-replay.js';

const request: ModelRequest = { model: 'm', messages: [], tools: [], config: {} };
const input = { prompt: 'go', inputs: {} };

/** Answers each call with its number, or fails the calls named in `failing`. */
function counting(failing: number[] = []): ModelClient & { calls: number } {
  const client: ModelClient & { calls: number } = {
    specificationVersion: MODEL_SPECIFICATION_VERSION,
    provider: 'scripted',
    calls: 0,
    async *generate(): AsyncIterable<ModelChunk> {
      client.calls++;
      yield { type: 'text', text: `reply ${client.calls}` };
      await Promise.resolve();
      if (failing.includes(client.calls)) throw new Error('provider down');
    },
  };
  return client;
}

async function texts(client: ModelClient): Promise<string> {
  let text = '';
  for await (const chunk of client.generate(request, new AbortController().signal))
    if (chunk.type === 'text') text += chunk.text;
  return text;
}

describe('code replay (scripted model)', () => {
  it('answers recorded model calls from the record and makes only the new ones', async () => {
    const first = codeReplay(input, undefined, {});
    const live = counting();
    expect(await texts(first.model(live))).toBe('reply 1');
    const again = codeReplay(input, JSON.parse(JSON.stringify(first.memo)), {});
    const model = again.model(live);
    expect(await texts(model)).toBe('reply 1');
    expect(await texts(model)).toBe('reply 2');
    expect(live.calls).toBe(2);
  });

  it('a call that failed half-way is made again, not replayed as if whole', async () => {
    const first = codeReplay(input, undefined, {});
    await expect(texts(first.model(counting([1])))).rejects.toThrow('provider down');
    expect(first.memo.models).toEqual([null]);
    const live = counting();
    expect(await texts(codeReplay(input, first.memo, {}).model(live))).toBe('reply 1');
    expect(live.calls).toBe(1);
  });

  it('a finished child is answered from the record, never started again', async () => {
    const result = { agent: 'news', final_message: 'markets up' } as RunResult;
    const news: AgentDefinition = {
      name: 'news',
      description: 'news',
      promptConfig: { systemPrompt: 'News.' },
      toolConfig: { tools: [] },
    };
    const spawn: SpawnRequest = {
      target: { kind: 'definition', definition: news },
      ephemeral: false,
      inputs: { prompt: 'x' },
    };
    const first = codeReplay(input, undefined, {});
    await first.spawn(
      spawn,
      () => Promise.resolve(result),
      () => {},
    );
    const replayed: RunResult[] = [];
    const again = codeReplay(input, first.memo, {});
    const got = await again.spawn(
      spawn,
      () => Promise.reject(new Error('must not run')),
      (r) => replayed.push(r),
    );
    expect(got.final_message).toBe('markets up');
    expect(replayed).toHaveLength(1);
  });
});
