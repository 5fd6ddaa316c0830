/**
 * A fake Gemini API endpoint for tests: a real HTTP server speaking the
 * Gemini REST wire format, so the real `@google/genai` SDK is exercised.
 * Every response is SCRIPTED by the test (`turns`); there is no model here.
 *
 *   POST /{version}/models/{model}:generateContent         → one JSON response
 *   POST /{version}/models/{model}:streamGenerateContent   → SSE (`?alt=sse`)
 */
import { startFakeHttp } from './fake-http.js';
import type { FakeProvider } from './fake-http.js';
import { exhaustedMessage, fakeInputTokens, pickTurn, splitInTwo, usageOf } from './fake-turn.js';
import type { FakePart, FakeServer, FakeServerOptions, FakeTurn, FakeUsage } from './fake-turn.js';

export type {
  CapturedRequest,
  FakeFailure,
  FakePart,
  FakeServer,
  FakeServerOptions,
  FakeTurn,
} from './fake-turn.js';

const ROUTE = /^\/[^/]+\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

type GeminiPart = Record<string, unknown>;

export function startFakeGemini(options: FakeServerOptions): Promise<FakeServer> {
  const provider: FakeProvider = {
    name: 'fake-gemini',
    errorBody: (status, message) => ({
      error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' },
    }),
    tooLong: (inputTokens, maxTokens) => ({
      status: 400,
      body: provider.errorBody(
        400,
        `The input token count (${inputTokens}) exceeds the maximum number of tokens allowed (${maxTokens}).`,
      ),
    }),
    async handle(request, turnIndex, reply) {
      const route = ROUTE.exec(request.path);
      if (request.method !== 'POST' || !route) {
        reply.json(
          404,
          provider.errorBody(404, `fake-gemini: no route for ${request.method} ${request.path}`),
        );
        return;
      }
      const model = decodeURIComponent(route[1] ?? '');
      const turn = pickTurn(options, request, turnIndex);
      if (!turn) {
        reply.json(
          500,
          provider.errorBody(500, exhaustedMessage('fake-gemini', turnIndex, options)),
        );
        return;
      }
      const usage = usageOf(
        turn,
        request.body,
        options.maxInputTokens !== undefined ? fakeInputTokens(request.body) : undefined,
      );
      if (route[2] === 'generateContent') {
        reply.json(200, response(model, turn.parts.map(wholePart), usage, true));
        return;
      }
      await reply.sse(streamEvents(model, turn, usage), '\r\n\r\n');
    },
  };
  return startFakeHttp(provider, options);
}

/** One event per text half, thought half and function call; usage and finishReason on the last. */
function streamEvents(model: string, turn: FakeTurn, usage: FakeUsage): string[] {
  const pieces = turn.parts.flatMap(streamedPieces);
  if (pieces.length === 0) return [JSON.stringify(response(model, [], usage, true))];
  return pieces.map((part, index) =>
    JSON.stringify(response(model, [part], usage, index === pieces.length - 1)),
  );
}

function streamedPieces(part: FakePart): GeminiPart[] {
  if ('functionCall' in part) return [wholePart(part)];
  const text = 'text' in part ? part.text : part.thought;
  const halves = splitInTwo(text);
  // The signature rides on the last piece of the part, as Gemini sends it.
  return halves.map((piece, index) =>
    withSignature(
      { text: piece, ...('thought' in part ? { thought: true } : {}) },
      index === halves.length - 1 ? part.signature : undefined,
    ),
  );
}

function wholePart(part: FakePart): GeminiPart {
  if ('functionCall' in part) {
    const { name, args, id } = part.functionCall;
    return withSignature(
      { functionCall: { name, args, ...(id === undefined ? {} : { id }) } },
      part.signature,
    );
  }
  if ('thought' in part)
    return withSignature({ text: part.thought, thought: true }, part.signature);
  return withSignature({ text: part.text }, part.signature);
}

function withSignature(part: GeminiPart, signature: string | undefined): GeminiPart {
  return signature === undefined ? part : { ...part, thoughtSignature: signature };
}

function response(model: string, parts: GeminiPart[], usage: FakeUsage, last: boolean): unknown {
  return {
    candidates: [
      { content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) },
    ],
    // Like the real API, early chunks carry partial usage; only the last is final.
    usageMetadata: last
      ? {
          promptTokenCount: usage.input,
          candidatesTokenCount: usage.output,
          ...(usage.thoughts > 0 ? { thoughtsTokenCount: usage.thoughts } : {}),
          totalTokenCount: usage.input + usage.output + usage.thoughts,
        }
      : { promptTokenCount: usage.input, totalTokenCount: usage.input },
    modelVersion: model,
    responseId: 'fake-response',
  };
}
