import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalClient } from '../src/model/local-client.js';
import type { ModelRequest } from '../src/model/types.js';
import { tinyLlamaGguf } from '../src/testing/tiny-gguf.js';

/**
 * The local provider on the generated random-weight model (or LOCAL_BENCH_MODEL,
 * a real GGUF): tokens per second, time to first token, and the provider's
 * per-turn overhead against calling node-llama-cpp's LlamaChat directly on
 * the same prompt. One thread (LOCAL_BENCH_THREADS), as a shared machine runs best.
 */
const TURNS = 20;
const TOKENS = 64;

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cadre-local-bench-'));
  const file = process.env.LOCAL_BENCH_MODEL ?? path.join(dir, 'tiny.gguf');
  if (!process.env.LOCAL_BENCH_MODEL) await writeFile(file, tinyLlamaGguf({ contextLength: 4096 }));
  const threads = Number(process.env.LOCAL_BENCH_THREADS ?? 1);
  const request: ModelRequest = {
    model: 'bench',
    systemInstruction: 'Be brief.',
    messages: [
      { role: 'user', parts: [{ kind: 'text', text: 'Write a short poem about rivers.' }] },
    ],
    tools: [],
    config: { maxOutputTokens: TOKENS },
  };
  const client = new LocalClient({
    label: 'bench',
    modelPath: () => Promise.resolve(file),
    threads,
    sequences: 1,
  });
  const signal = new AbortController().signal;
  const started = performance.now();
  await client.contextWindow();
  console.log(`load (library + model): ${(performance.now() - started).toFixed(0)} ms`);

  const provider: number[] = [];
  const firsts: number[] = [];
  let tokens = 0;
  for (let turn = 0; turn < TURNS; turn++) {
    const t0 = performance.now();
    let first: number | undefined;
    for await (const chunk of client.generate(request, signal)) {
      if (chunk.type === 'text') first ??= performance.now() - t0;
      if (chunk.type === 'usage') tokens += chunk.usage.outputTokens;
    }
    provider.push(performance.now() - t0);
    firsts.push(first ?? NaN);
  }
  await client.close();

  // The same generation straight through the library, no Cadre in between.
  const lib = await import('node-llama-cpp');
  const llama = await lib.getLlama({
    build: 'never',
    progressLogs: false,
    logLevel: lib.LlamaLogLevel.error,
  });
  const model = await llama.loadModel({ modelPath: file });
  const context = await model.createContext({ sequences: 1, contextSize: { max: 4096 }, threads });
  const sequence = context.getSequence();
  const direct: number[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const t0 = performance.now();
    const chat = new lib.LlamaChat({ contextSequence: sequence, autoDisposeSequence: false });
    await chat.generateResponse(
      [
        { type: 'system', text: 'Be brief.' },
        { type: 'user', text: 'Write a short poem about rivers.' },
        { type: 'model', response: [] },
      ],
      { maxTokens: TOKENS },
    );
    chat.dispose({ disposeSequence: false });
    direct.push(performance.now() - t0);
  }
  await model.dispose();
  await rm(dir, { recursive: true, force: true });

  const p = median(provider);
  const d = median(direct);
  console.log(
    `tokens/s (provider): ${((tokens / provider.reduce((a, b) => a + b, 0)) * 1000).toFixed(0)}`,
  );
  console.log(`time to first token: ${median(firsts).toFixed(1)} ms (median of ${TURNS})`);
  console.log(
    `turn of ${TOKENS} tokens: provider ${p.toFixed(1)} ms, node-llama-cpp directly ${d.toFixed(1)} ms`,
  );
  console.log(`per-turn overhead: ${(p - d).toFixed(1)} ms`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

await main();
