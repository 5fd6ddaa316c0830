import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/cadre-error.js';
import { ModelError } from '../errors/model-error.js';
import type { AgentDefinition } from '../definition/types.js';
import { run } from '../runtime/run-verbs.js';
import { startFakeHub, type FakeHub } from '../testing/fake-model-hub.js';
import { tinyLlamaGguf } from '../testing/tiny-gguf.js';
import { defineTool } from '../tools/types.js';
import { LocalClient } from './local-client.js';
import { localClient } from './local-client-for.js';
import { defaultThreads, LocalModelHost } from './local-model-host.js';
import { pullModel } from './local-model-store.js';
import { resolveModelClient } from './resolve-model.js';
import type { ModelChunk, ModelRequest } from './types.js';

// The model is generated here: random weights, a byte-level vocabulary, a 3072-token
// window in its metadata, and a bias towards "l" so its choice of tool is stable.
const WINDOW = 3072;
const MODEL_URI = 'hf:cadre-test/tiny-random-GGUF:Q8_0';
let dir: string;
let hub: FakeHub;
let env: Record<string, string>;
let file: string;
let pulled: { file: string; bytes: number };
const progress: number[] = [];
const bytes = tinyLlamaGguf({ contextLength: WINDOW, favour: 'l' });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-local-'));
  file = path.join(dir, 'tiny.gguf');
  await writeFile(file, bytes);
  hub = await startFakeHub({
    user: 'cadre-test',
    repo: 'tiny-random-GGUF',
    file: 'tiny-random.Q8_0.gguf',
    bytes,
    stallFirstDownloadAt: 100_000,
  });
  // One thread: a shared 2-core machine makes threads wait on each other.
  env = {
    HF_ENDPOINT: hub.url,
    CADRE_MODELS_DIR: path.join(dir, 'models'),
    CADRE_LOCAL_THREADS: '1',
  };
  // The first pull stalls at 100 000 bytes and is given up; the second completes.
  const giveUp = new AbortController();
  const first = pullModel(MODEL_URI, env, {
    signal: giveUp.signal,
    onProgress: (p) => {
      if (p.downloadedBytes >= 100_000) giveUp.abort();
    },
  });
  await expect(first).rejects.toThrow();
  pulled = await pullModel(MODEL_URI, env, {
    onProgress: (p) => progress.push(p.downloadedBytes),
  });
});

afterAll(async () => {
  await hub.close();
  await rm(dir, { recursive: true, force: true });
});

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'tiny',
  systemInstruction: 'Be brief.',
  messages: [{ role: 'user', parts: [{ kind: 'text', text: 'Hello there.' }] }],
  tools: [],
  config: { maxOutputTokens: 16 },
  ...overrides,
});

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('local: provider on a generated random-weight GGUF model', () => {
  it('pulls the generated model from a loopback fake hub, resuming a stalled pull that was given up, size checked', () => {
    expect(pulled.bytes).toBe(bytes.byteLength);
    expect(path.dirname(pulled.file)).toBe(path.join(dir, 'models'));
    // The second pull resumed where the given-up one stopped, with a Range request.
    expect(hub.ranges.filter((r) => r.startsWith('bytes='))).toEqual(['bytes=0-', 'bytes=100000-']);
    expect(progress.at(-1)).toBe(bytes.byteLength);
  });

  it('loads the pulled generated model by its hub URI and reads the window from the GGUF metadata', async () => {
    const client = localClient(`  ${MODEL_URI}`, env, dir);
    try {
      expect(await client.contextWindow()).toBe(WINDOW);
      // Resolved as a run resolves it (text only, loaded lazily), it still tells its window.
      const resolved = resolveModelClient('local:./tiny.gguf', env, { cwd: dir }).client;
      expect(await resolved.contextWindow?.()).toBe(WINDOW);
    } finally {
      await client.close();
    }
  });

  it('streams text from the generated random-weight model; usage from its tokenizer, cost 0', async () => {
    const client = localClient('./tiny.gguf', env, dir);
    try {
      const chunks = await collect(client.generate(request(), new AbortController().signal));
      const texts = chunks.flatMap((c) => (c.type === 'text' ? [c.text] : []));
      expect(texts.length).toBe(16);
      expect(texts.join('')).toBe('l'.repeat(16));
      const usage = chunks.at(-1);
      expect(usage).toMatchObject({
        type: 'usage',
        usage: {
          outputTokens: 16,
          costUsd: 0,
          response: { provider: 'local', model: './tiny.gguf' },
        },
      });
      // Byte-level vocabulary: the prompt is at least its own characters long.
      expect(usage?.type === 'usage' && usage.usage.inputTokens).toBeGreaterThan(
        'Be brief.Hello there.'.length,
      );
    } finally {
      await client.close();
    }
  });

  it('runs a grammar-forced tool call round trip through the real executor on the generated random-weight model', async () => {
    const looked: unknown[] = [];
    const lookupCity = defineTool<{ city: string }>({
      name: 'lookup_city',
      description: 'Facts about a city.',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string', enum: ['Paris', 'Oslo'] } },
        required: ['city'],
        additionalProperties: false,
      },
      sideEffect: false,
      execute: (args) => {
        looked.push(args);
        return Promise.resolve({ population: 1 });
      },
    });
    const agent: AgentDefinition = {
      name: 'city-facts',
      description: 'Looks a city up.',
      promptConfig: { systemPrompt: 'Look the city up, then finish.' },
      modelConfig: { model: 'local:./tiny.gguf' },
      toolConfig: { tools: ['lookup_city'] },
      runConfig: { max_turns: 2 },
      outputConfig: {
        outputName: 'facts',
        schema: {
          kind: 'json_schema',
          schema: {
            type: 'object',
            properties: { city: { enum: ['Paris', 'Oslo'] }, known: { type: 'boolean' } },
            required: ['city', 'known'],
            additionalProperties: false,
          },
        },
      },
    };
    const result = await run(agent, {
      inputs: { prompt: 'Tell me about Paris.' },
      resolveModel: (name) => resolveModelClient(name, env, { cwd: dir }),
      tools: [lookupCity],
    });
    // Every turn was a call that parsed: the tool ran on each ordinary turn, and the
    // grace turn (complete_task only) finished with output that fits the schema.
    expect(looked).toHaveLength(2);
    for (const args of looked) expect(['Paris', 'Oslo']).toContain((args as { city: string }).city);
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.output).toEqual({
      city: expect.stringMatching(/^(Paris|Oslo)$/),
      known: expect.any(Boolean),
    });
  });

  it('stops generating within one token of an abort (generated random-weight model)', async () => {
    const client = localClient('./tiny.gguf', env, dir);
    try {
      const controller = new AbortController();
      const texts: string[] = [];
      let afterAbort = 0;
      const reading = (async () => {
        for await (const chunk of client.generate(
          request({ config: { maxOutputTokens: 2_000 } }),
          controller.signal,
        )) {
          if (chunk.type !== 'text') continue;
          if (controller.signal.aborted) afterAbort++;
          texts.push(chunk.text);
          if (texts.length === 5) controller.abort();
        }
      })();
      await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
      expect(afterAbort).toBeLessThanOrEqual(1);
      expect(texts.length).toBeLessThan(10);
      // The sequence went back to the pool: the next call runs.
      const again = await collect(
        client.generate(request({ config: { maxOutputTokens: 2 } }), new AbortController().signal),
      );
      expect(again.filter((c) => c.type === 'text')).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('gives llama.cpp its math cores less one when CADRE_LOCAL_THREADS is unset (generated random-weight model)', async () => {
    expect([0, 1, 2, 8].map(defaultThreads)).toEqual([1, 1, 1, 7]);
    const host = new LocalModelHost({ modelPath: () => Promise.resolve(file), sequences: 1 });
    try {
      const { context } = await host.ready();
      const { getLlama } = await import('node-llama-cpp');
      const cores = (await getLlama({ build: 'never', progressLogs: false })).cpuMathCores;
      expect(context.idealThreads).toBe(defaultThreads(cores));
    } finally {
      await host.close();
    }
  });

  it('serves two concurrent generations from one loaded generated random-weight model', async () => {
    let loads = 0;
    const client = new LocalClient({
      label: 'tiny',
      modelPath: () => {
        loads++;
        return Promise.resolve(file);
      },
      threads: 1,
      sequences: 2,
    });
    try {
      const signal = new AbortController().signal;
      const [a, b] = await Promise.all([
        collect(client.generate(request({ config: { maxOutputTokens: 40 } }), signal)),
        collect(client.generate(request({ config: { maxOutputTokens: 30 } }), signal)),
      ]);
      expect(a.filter((c) => c.type === 'text')).toHaveLength(40);
      expect(b.filter((c) => c.type === 'text')).toHaveLength(30);
      expect(loads).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('refuses a request longer than the metadata window as too long, so the run compacts', async () => {
    const client = localClient('./tiny.gguf', env, dir);
    try {
      const long = request({
        messages: [{ role: 'user', parts: [{ kind: 'text', text: 'x'.repeat(WINDOW) }] }],
      });
      const failure = await collect(client.generate(long, new AbortController().signal)).catch(
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(ModelError);
      expect((failure as ModelError).contextOverflow).toMatchObject({ maxTokens: WINDOW });
      expect((failure as ModelError).contextOverflow?.inputTokens).toBeGreaterThan(WINDOW);
    } finally {
      await client.close();
    }
  });
});

describe('local: provider set-up errors', () => {
  it('names the package to install when node-llama-cpp is missing', async () => {
    const missing = Object.assign(
      new Error("Cannot find package 'node-llama-cpp' imported from /app/cadre.js"),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
    const client = new LocalClient({
      label: 'x',
      modelPath: () => Promise.resolve('unused.gguf'),
      load: () => Promise.reject(missing),
    });
    const failure = await collect(client.generate(request(), new AbortController().signal)).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toBe(
      'Local models (local:) need node-llama-cpp: npm install node-llama-cpp',
    );
  });

  it('names the pull command for a hub model not pulled yet, and the path of a missing file', async () => {
    const notPulled = localClient('hf:cadre-test/other-GGUF:Q4_K_M', env, dir);
    await expect(
      collect(notPulled.generate(request(), new AbortController().signal)),
    ).rejects.toThrow(
      'The model hf:cadre-test/other-GGUF:Q4_K_M is not downloaded yet: run `cadre models pull hf:cadre-test/other-GGUF:Q4_K_M` first.',
    );
    const noFile = localClient('./absent.gguf', env, dir);
    await expect(collect(noFile.generate(request(), new AbortController().signal))).rejects.toThrow(
      `No model file at ${path.join(dir, 'absent.gguf')}`,
    );
  });
});
