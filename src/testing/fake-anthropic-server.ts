/**
 * A fake Anthropic Messages endpoint for tests: a real HTTP server speaking
 * the Messages wire format, so the real `@anthropic-ai/sdk` is exercised.
 * Every response is SCRIPTED by the test (`turns`); there is no model here.
 *
 *   POST /v1/messages  (stream: true → named SSE events: message_start, ping,
 *   content_block_start / _delta / _stop, message_delta, message_stop)
 *
 * Thought parts are served as thinking blocks (thinking_delta, then a
 * signature_delta); function calls as tool_use blocks whose input arrives
 * as 2+ input_json_delta fragments.
 */
import { startFakeHttp } from './fake-http.js';
import type { FakeProvider, SseEvent } from './fake-http.js';
import { exhaustedMessage, fakeInputTokens, splitInTwo, usageOf } from './fake-turn.js';
import type {
  CapturedRequest,
  FakePart,
  FakeServer,
  FakeServerOptions,
  FakeTurn,
  FakeUsage,
} from './fake-turn.js';

export type { CapturedRequest, FakeFailure, FakePart, FakeServer } from './fake-turn.js';

export interface FakeAnthropicTurn extends FakeTurn {
  /** Input tokens read from / written to the prompt cache; Anthropic counts them apart from input_tokens. */
  cache?: { read?: number; write?: number };
  /** Replaces the stop_reason (default: `tool_use` when the turn calls tools, else `end_turn`). */
  stopReason?: string;
  /** Sent as `event: error` right after message_start, ending the stream (e.g. overloaded_error). */
  streamError?: { type: string; message?: string };
}

export interface FakeAnthropicOptions extends FakeServerOptions {
  turns: FakeAnthropicTurn[] | ((request: CapturedRequest, index: number) => FakeAnthropicTurn);
}

const ROUTE = /^(\/v1)?\/messages$/;

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

type Block = Record<string, unknown>;

interface Scripted {
  start: Block;
  deltas: Block[];
  whole: Block;
}

export function startFakeAnthropic(options: FakeAnthropicOptions): Promise<FakeServer> {
  const provider: FakeProvider = {
    name: 'fake-anthropic',
    errorBody: (status, message) => ({
      type: 'error',
      error: {
        type: ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
        message,
      },
    }),
    tooLong: (inputTokens, maxTokens) => ({
      status: 400,
      body: provider.errorBody(
        400,
        `prompt is too long: ${inputTokens} tokens > ${maxTokens} maximum`,
      ),
    }),
    async handle(request, turnIndex, reply) {
      if (request.method !== 'POST' || !ROUTE.test(request.path)) {
        reply.json(
          404,
          provider.errorBody(404, `fake-anthropic: no route for ${request.method} ${request.path}`),
        );
        return;
      }
      const turn =
        typeof options.turns === 'function'
          ? options.turns(request, turnIndex)
          : options.turns[turnIndex];
      if (!turn) {
        reply.json(
          500,
          provider.errorBody(500, exhaustedMessage('fake-anthropic', turnIndex, options)),
        );
        return;
      }
      const body = (request.body ?? {}) as { model?: string; stream?: boolean };
      const message = {
        id: `msg_fake_${turnIndex}`,
        type: 'message',
        role: 'assistant',
        model: body.model ?? 'claude-fake',
      };
      const blocks = turn.parts.map((part, index) => scriptedBlock(part, turnIndex, index));
      const stopReason =
        turn.stopReason ?? (turn.parts.some((p) => 'functionCall' in p) ? 'tool_use' : 'end_turn');
      const usage = usageOf(
        turn,
        request.body,
        options.maxInputTokens !== undefined ? fakeInputTokens(request.body) : undefined,
      );
      if (!body.stream) {
        reply.json(200, {
          ...message,
          content: blocks.map((block) => block.whole),
          stop_reason: stopReason,
          stop_sequence: null,
          stop_details: null,
          usage: finalUsage(usage, turn),
        });
        return;
      }
      await reply.sse(streamEvents(message, blocks, stopReason, usage, turn), '\n\n');
    },
  };
  return startFakeHttp(provider, options);
}

function streamEvents(
  message: Block,
  blocks: Scripted[],
  stopReason: string,
  usage: FakeUsage,
  turn: FakeAnthropicTurn,
): SseEvent[] {
  const event = (data: Block): SseEvent => ({
    event: String(data['type']),
    data: JSON.stringify(data),
  });
  const events: SseEvent[] = [
    event({
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // As the real API does: input counts up front, output only at the end.
        usage: { ...inputUsage(usage, turn), output_tokens: 1 },
      },
    }),
    event({ type: 'ping' }),
  ];
  if (turn.streamError) {
    const { type, message: text } = turn.streamError;
    events.push(event({ type: 'error', error: { type, message: text ?? type } }));
    return events;
  }
  for (const [index, block] of blocks.entries()) {
    events.push(event({ type: 'content_block_start', index, content_block: block.start }));
    for (const delta of block.deltas)
      events.push(event({ type: 'content_block_delta', index, delta }));
    events.push(event({ type: 'content_block_stop', index }));
  }
  events.push(
    event({
      type: 'message_delta',
      delta: {
        stop_reason: stopReason,
        stop_sequence: null,
        ...(stopReason === 'refusal'
          ? { stop_details: { type: 'refusal', category: null, explanation: null } }
          : {}),
      },
      usage: finalUsage(usage, turn),
    }),
    event({ type: 'message_stop' }),
  );
  return events;
}

function scriptedBlock(part: FakePart, turnIndex: number, index: number): Scripted {
  if ('functionCall' in part) {
    const { name, args, id, rawArguments } = part.functionCall;
    const toolId = id ?? `toolu_fake_${turnIndex}_${index}`;
    return {
      start: { type: 'tool_use', id: toolId, name, input: {} },
      deltas: splitInTwo(rawArguments ?? JSON.stringify(args)).map((partial_json) => ({
        type: 'input_json_delta',
        partial_json,
      })),
      whole: { type: 'tool_use', id: toolId, name, input: args },
    };
  }
  if ('thought' in part) {
    // The real API signs every thinking block; the fake invents a signature when none is scripted.
    const signature = part.signature ?? `sig_fake_${turnIndex}_${index}`;
    return {
      start: { type: 'thinking', thinking: '', signature: '' },
      deltas: [
        ...splitInTwo(part.thought).map((thinking) => ({ type: 'thinking_delta', thinking })),
        { type: 'signature_delta', signature },
      ],
      whole: { type: 'thinking', thinking: part.thought, signature },
    };
  }
  return {
    start: { type: 'text', text: '' },
    deltas: splitInTwo(part.text).map((text) => ({ type: 'text_delta', text })),
    whole: { type: 'text', text: part.text, citations: null },
  };
}

function inputUsage(usage: FakeUsage, turn: FakeAnthropicTurn): Block {
  return {
    input_tokens: usage.input,
    cache_creation_input_tokens: turn.cache?.write ?? 0,
    cache_read_input_tokens: turn.cache?.read ?? 0,
  };
}

/** Anthropic counts thinking inside output_tokens; the details split it out. */
function finalUsage(usage: FakeUsage, turn: FakeAnthropicTurn): Block {
  return {
    ...inputUsage(usage, turn),
    output_tokens: usage.output + usage.thoughts,
    output_tokens_details: { thinking_tokens: usage.thoughts },
  };
}
