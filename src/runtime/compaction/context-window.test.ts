import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../definition/types.js';
import type { CadreEvent } from '../../events/types.js';
import { AnthropicClient } from '../../model/anthropic-client.js';
import { GeminiClient } from '../../model/gemini-client.js';
import { OpenAIClient } from '../../model/openai-client.js';
import type { ModelClient } from '../../model/types.js';
import { startFakeAnthropic } from '../../testing/fake-anthropic-server.js';
import { startFakeGemini } from '../../testing/fake-gemini-server.js';
import { startFakeOpenAI } from '../../testing/fake-openai-server.js';
import {
  fakeInputTokens,
  type CapturedRequest,
  type FakeServer,
  type FakeServerOptions,
  type FakeTurn,
} from '../../testing/fake-turn.js';
import { defineTool, type Tool } from '../../tools/types.js';
import { run } from '../run-verbs.js';
import { SUMMARY_INSTRUCTION } from './compact-conversation.js';

/** A file reader whose files are as large as the test says (the `n`th: `sizeOf(n)` characters). */
function readTool(sizeOf: (n: number) => number): Tool {
  return defineTool<{ n: number }>({
    name: 'read_file',
    description: 'Read file number n.',
    inputSchema: {
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
      additionalProperties: false,
    },
    sideEffect: false,
    execute: (args) => {
      const line = `File ${args.n}: the quick brown fox jumps over the lazy dog. `;
      return Promise.resolve(line.repeat(Math.ceil(sizeOf(args.n) / line.length)));
    },
  });
}

const reader = (window: number, maxTurns: number): AgentDefinition => ({
  name: 'reader',
  description: 'Reads files, then answers',
  promptConfig: { systemPrompt: 'You read files.' },
  toolConfig: { tools: ['read_file'] },
  runConfig: { max_turns: maxTurns, compaction: { context_window: window, keep_turns: 4 } },
});

const isSummary = (request: CapturedRequest): boolean =>
  JSON.stringify(request.body).includes(SUMMARY_INSTRUCTION.slice(0, 40));

/**
 * The scripted model: reads files 1..files, one a turn, then answers; a
 * summary request gets a short scripted note. Refused requests never reach it.
 */
function readingScript(files: number): (request: CapturedRequest) => FakeTurn {
  let turn = 0;
  return (request) => {
    if (isSummary(request)) return { parts: [{ text: `Read files up to ${turn}; nothing odd.` }] };
    turn += 1;
    return turn <= files
      ? { parts: [{ functionCall: { name: 'read_file', args: { n: turn } } }] }
      : { parts: [{ text: `Read ${files} files.` }] };
  };
}

type Provider = 'gemini' | 'openai' | 'anthropic';

async function fakeProvider(
  provider: Provider,
  options: FakeServerOptions,
): Promise<{ server: FakeServer; client: ModelClient }> {
  const retry = { baseDelayMs: 1, random: () => 0 };
  switch (provider) {
    case 'gemini': {
      const server = await startFakeGemini(options);
      return { server, client: new GeminiClient({ apiKey: 'k', baseUrl: server.baseUrl, retry }) };
    }
    case 'openai': {
      const server = await startFakeOpenAI(options);
      const baseUrl = `${server.baseUrl}/v1`;
      return { server, client: new OpenAIClient({ apiKey: 'k', baseUrl, retry }) };
    }
    case 'anthropic': {
      const server = await startFakeAnthropic(options);
      return {
        server,
        client: new AnthropicClient({ apiKey: 'k', baseUrl: server.baseUrl, retry }),
      };
    }
    default:
      return provider satisfies never;
  }
}

/** The largest request the provider received, by its own count. */
const largest = (server: FakeServer): number =>
  Math.max(...server.requests.map((r) => fakeInputTokens(r.body)));

describe('no request over the context window (fake provider that refuses oversized requests, scripted model)', () => {
  it('a 50-turn run reading large files, some larger than the window, never sends one over it', async () => {
    const WINDOW = 6_000;
    // About 1,500 tokens a file; every tenth is 12,000 tokens, twice the window.
    const sizeOf = (n: number): number => (n % 10 === 0 ? 36_000 : 4_500);
    const { server, client } = await fakeProvider('gemini', {
      turns: readingScript(50),
      maxInputTokens: WINDOW,
    });
    const events: CadreEvent[] = [];
    try {
      const result = await run(reader(WINDOW, 60), {
        model: client,
        tools: [readTool(sizeOf)],
        inputs: { prompt: 'Read files 1 to 50.' },
        onEvent: (e) => events.push(e),
      });
      expect(result.terminate_reason).toBe('GOAL');
      expect(result.final_message).toBe('Read 50 files.');
      const biggest = largest(server);
      const summaries = server.requests.filter(isSummary).length;
      const trimmed = events.filter(
        (e) => e.type === 'warning' && e.data.reason === 'trimmed_to_fit',
      ).length;
      console.log(
        `50-turn run: largest request ${biggest} tokens (provider's count) against a ${WINDOW}-token window; ` +
          `${server.requests.length} requests, ${summaries} summary calls, ${trimmed} results trimmed, none refused`,
      );
      expect(biggest).toBeLessThanOrEqual(WINDOW);
      expect(events.some((e) => e.type === 'error')).toBe(false);
      // The files twice the window reached the model trimmed, head and tail kept.
      expect(trimmed).toBeGreaterThanOrEqual(5);
      expect(JSON.stringify(server.requests.map((r) => r.body))).toMatch(
        /\[trimmed to fit the context window: \d+ characters of this tool result are not shown\]/,
      );
      expect(summaries).toBeGreaterThan(5);
    } finally {
      await server.close();
    }
  }, 60_000);

  it.each<Provider>(['gemini', 'openai', 'anthropic'])(
    'recovers from a %s "too long" answer: one compaction, one retry, the run finishes',
    async (provider) => {
      // The project says 8,000 tokens; the provider really takes 4,500.
      const REAL = 4_500;
      const { server, client } = await fakeProvider(provider, {
        turns: readingScript(6),
        maxInputTokens: REAL,
      });
      const events: CadreEvent[] = [];
      try {
        const result = await run(reader(8_000, 20), {
          model: client,
          tools: [readTool(() => 3_000)],
          inputs: { prompt: 'Read files 1 to 6.' },
          onEvent: (e) => events.push(e),
        });
        expect(result.terminate_reason).toBe('GOAL');
        expect(result.final_message).toBe('Read 6 files.');
        const refused = server.requests.filter((r) => fakeInputTokens(r.body) > REAL);
        expect(refused).toHaveLength(1);
        expect(
          events.filter((e) => e.type === 'warning' && e.data.reason === 'context_too_long'),
        ).toHaveLength(1);
        expect(events.some((e) => e.type === 'context_compacted')).toBe(true);
        // After the refusal the provider's limit is known: nothing over it again.
        const after = server.requests.slice(server.requests.indexOf(refused[0]!) + 1);
        const biggest = Math.max(...after.map((r) => fakeInputTokens(r.body)));
        expect(biggest).toBeLessThanOrEqual(REAL);
        console.log(
          `${provider} refusal: one request of ${fakeInputTokens(refused[0]!.body)} tokens refused (window ${REAL}); ` +
            `after it the largest was ${biggest}; ${server.requests.filter(isSummary).length} summary calls`,
        );
      } finally {
        await server.close();
      }
    },
    30_000,
  );
});
