/**
 * A fake OpenAI-compatible endpoint for tests: a real HTTP server speaking
 * the Chat Completions wire format, so the real `openai` SDK is exercised.
 * Every response is SCRIPTED by the test (`turns`); there is no model here.
 *
 *   POST /v1/chat/completions  (stream: true → SSE chunks ending `data: [DONE]`)
 *
 * Thought parts are served as `reasoning_content` deltas, as vLLM, Ollama and
 * DeepSeek-style servers send them.
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

const ROUTE = /^(\/v1)?\/chat\/completions$/;

interface ScriptedCall {
  index: number;
  id: string;
  name: string;
  arguments: string;
}

export function startFakeOpenAI(options: FakeServerOptions): Promise<FakeServer> {
  const provider: FakeProvider = {
    name: 'fake-openai',
    errorBody: (status, message) => ({
      error: {
        message,
        type: status >= 500 ? 'server_error' : 'invalid_request_error',
        param: null,
        code: null,
      },
    }),
    tooLong: (inputTokens, maxTokens) => ({
      status: 400,
      body: {
        error: {
          message: `This model's maximum context length is ${maxTokens} tokens. However, your messages resulted in ${inputTokens} tokens. Please reduce the length of the messages.`,
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    }),
    async handle(request, turnIndex, reply) {
      if (request.method !== 'POST' || !ROUTE.test(request.path)) {
        reply.json(
          404,
          provider.errorBody(404, `fake-openai: no route for ${request.method} ${request.path}`),
        );
        return;
      }
      const body = (request.body ?? {}) as {
        model?: string;
        stream?: boolean;
        stream_options?: { include_usage?: boolean };
      };
      const turn = pickTurn(options, request, turnIndex);
      if (!turn) {
        reply.json(
          500,
          provider.errorBody(500, exhaustedMessage('fake-openai', turnIndex, options)),
        );
        return;
      }
      const usage = usageOf(
        turn,
        request.body,
        options.maxInputTokens !== undefined ? fakeInputTokens(request.body) : undefined,
      );
      const head = {
        id: `chatcmpl-fake-${turnIndex}`,
        created: 1_700_000_000,
        model: body.model ?? 'fake-model',
      };
      const calls = scriptedCalls(turn, turnIndex);
      if (!body.stream) {
        reply.json(200, completion(head, turn, calls, usage));
        return;
      }
      const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
        JSON.stringify({ ...head, object: 'chat.completion.chunk', choices, ...extra });
      const delta = (d: Record<string, unknown>, finish: string | null = null): string =>
        chunk([{ index: 0, delta: d, finish_reason: finish }]);

      const events = [delta({ role: 'assistant', content: '' })];
      for (const part of turn.parts) {
        if ('text' in part)
          events.push(...splitInTwo(part.text).map((piece) => delta({ content: piece })));
        if ('thought' in part)
          events.push(
            ...splitInTwo(part.thought).map((piece) => delta({ reasoning_content: piece })),
          );
      }
      for (const call of calls)
        events.push(...callDeltas(call).map((d) => delta({ tool_calls: [d] })));
      events.push(delta({}, calls.length > 0 ? 'tool_calls' : 'stop'));
      if (body.stream_options?.include_usage) events.push(chunk([], { usage: usageBody(usage) }));
      events.push('[DONE]');
      await reply.sse(events, '\n\n');
    },
  };
  return startFakeHttp(provider, options);
}

function scriptedCalls(turn: FakeTurn, turnIndex: number): ScriptedCall[] {
  const calls = turn.parts.filter(
    (part): part is Extract<FakePart, { functionCall: unknown }> => 'functionCall' in part,
  );
  return calls.map(({ functionCall }, index) => ({
    index,
    id: functionCall.id ?? `call_fake_${turnIndex}_${index}`,
    name: functionCall.name,
    arguments: functionCall.rawArguments ?? JSON.stringify(functionCall.args),
  }));
}

/** The first delta names the call; the arguments arrive in 2+ fragments, as real servers send them. */
function callDeltas(call: ScriptedCall): Record<string, unknown>[] {
  const [first = '', ...rest] = splitInTwo(call.arguments);
  return [
    {
      index: call.index,
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: first },
    },
    ...rest.map((piece) => ({ index: call.index, function: { arguments: piece } })),
  ];
}

function completion(
  head: Record<string, unknown>,
  turn: FakeTurn,
  calls: ScriptedCall[],
  usage: FakeUsage,
): unknown {
  const text = turn.parts.map((part) => ('text' in part ? part.text : '')).join('');
  const reasoning = turn.parts.map((part) => ('thought' in part ? part.thought : '')).join('');
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: text === '' ? null : text,
  };
  if (reasoning !== '') message['reasoning_content'] = reasoning;
  if (calls.length > 0) {
    message['tool_calls'] = calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    ...head,
    object: 'chat.completion',
    choices: [{ index: 0, message, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: usageBody(usage),
  };
}

/** OpenAI counts reasoning inside completion_tokens. */
function usageBody(usage: FakeUsage): unknown {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output + usage.thoughts,
    total_tokens: usage.input + usage.output + usage.thoughts,
    completion_tokens_details: { reasoning_tokens: usage.thoughts },
  };
}
