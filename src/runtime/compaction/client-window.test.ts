import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../definition/types.js';
import type { CadreEvent } from '../../events/types.js';
import { GeminiClient } from '../../model/gemini-client.js';
import { MODEL_SPECIFICATION_VERSION, type ModelClient } from '../../model/types.js';
import { startFakeGemini } from '../../testing/fake-gemini-server.js';
import { fakeInputTokens, type CapturedRequest, type FakeTurn } from '../../testing/fake-turn.js';
import { defineTool } from '../../tools/types.js';
import { run } from '../run-verbs.js';
import { SUMMARY_INSTRUCTION } from './compact-conversation.js';

// The provider takes 4,500 tokens; the model's name is in no context-window table.
const WINDOW = 4_500;

const reader: AgentDefinition = {
  name: 'reader',
  description: 'Reads files, then answers',
  promptConfig: { systemPrompt: 'You read files.' },
  toolConfig: { tools: ['read_file'] },
  modelConfig: { model: 'gemini-unlisted-local-like' },
  runConfig: { max_turns: 20, compaction: { keep_turns: 4 } },
};

const readFile = defineTool<{ n: number }>({
  name: 'read_file',
  description: 'Read file number n.',
  inputSchema: {
    type: 'object',
    properties: { n: { type: 'number' } },
    required: ['n'],
    additionalProperties: false,
  },
  sideEffect: false,
  execute: (args) => Promise.resolve(`File ${args.n}: the quick brown fox. `.repeat(120)),
});

const isSummary = (request: CapturedRequest): boolean =>
  JSON.stringify(request.body).includes(SUMMARY_INSTRUCTION.slice(0, 40));

/** Scripted: reads files 1..6, one a turn, then answers; a summary request gets a short note. */
function readingScript(): (request: CapturedRequest) => FakeTurn {
  let turn = 0;
  return (request) => {
    if (isSummary(request)) return { parts: [{ text: `Read files up to ${turn}.` }] };
    turn += 1;
    return turn <= 6
      ? { parts: [{ functionCall: { name: 'read_file', args: { n: turn } } }] }
      : { parts: [{ text: 'Read 6 files.' }] };
  };
}

/** The fake provider's client, telling its window when `tells` (as a local model's does). */
async function readRun(tells: boolean) {
  const server = await startFakeGemini({ turns: readingScript(), maxInputTokens: WINDOW });
  const gemini = new GeminiClient({
    apiKey: 'k',
    baseUrl: server.baseUrl,
    retry: { baseDelayMs: 1, random: () => 0 },
  });
  const client: ModelClient = {
    specificationVersion: MODEL_SPECIFICATION_VERSION,
    provider: gemini.provider,
    generate: (request, signal) => gemini.generate(request, signal),
    ...(tells ? { contextWindow: () => Promise.resolve(WINDOW) } : {}),
  };
  const events: CadreEvent[] = [];
  try {
    const result = await run(reader, {
      model: client,
      tools: [readFile],
      inputs: { prompt: 'Read files 1 to 6.' },
      onEvent: (e) => events.push(e),
    });
    const refused = server.requests.filter((r) => fakeInputTokens(r.body) > WINDOW).length;
    const warned = events.filter(
      (e) => e.type === 'warning' && e.data.reason === 'context_too_long',
    ).length;
    return { result, refused, warned, events };
  } finally {
    await server.close();
  }
}

describe("a client that knows its model's window tells it before the first request (fake provider, scripted model)", () => {
  it('the run fits every request to the told window: none is refused', async () => {
    const { result, refused, warned, events } = await readRun(true);
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.final_message).toBe('Read 6 files.');
    expect(refused).toBe(0);
    expect(warned).toBe(0);
    expect(events.some((e) => e.type === 'context_compacted')).toBe(true);
  }, 30_000);

  it('without it the window is learned from the first refusal, as before', async () => {
    const { result, refused, warned } = await readRun(false);
    expect(result.terminate_reason).toBe('GOAL');
    expect(refused).toBe(1);
    expect(warned).toBe(1);
  }, 30_000);
});
