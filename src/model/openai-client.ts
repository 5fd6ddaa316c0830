/**
 * OpenAI and OpenAI-compatible servers (vLLM, Ollama, llama.cpp, LM Studio)
 * through the `openai` SDK's streaming Chat Completions. The SDK is imported
 * on first use; its own retries are off because we retry in `withRetries`.
 */
import type OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
  type ModelResponseInfo,
} from './types.js';
import { createCallIdSource } from './call-id.js';
import type * as OpenAIMapping from './openai-mapping.js';
import { optionalImport } from '../util/optional-import.js';
import { withRetries } from './retry.js';
import type { RetryPolicy } from './retry.js';

export interface OpenAIClientOptions {
  apiKey: string;
  /** e.g. `http://127.0.0.1:11434/v1`; the SDK's default (api.openai.com) when omitted. */
  baseUrl?: string;
  /** Name in logs and trajectories; `ollama` for the ollama: prefix. Default `openai`. */
  provider?: string;
  /** OpenAI wants max_completion_tokens; older compatible servers only know max_tokens. */
  maxTokensParam?: 'max_completion_tokens' | 'max_tokens';
  retry?: RetryPolicy;
}

/** Reasoning deltas as vLLM / DeepSeek (`reasoning_content`) and Ollama / OpenRouter (`reasoning`) send them. */
type Delta = ChatCompletionChunk.Choice.Delta & {
  reasoning_content?: string | null;
  reasoning?: string | null;
};

/** The SDK's own default base URL, named for traces. */
const OPENAI_ENDPOINT = 'https://api.openai.com/v1';

/** An optional peer: `npm install cadre` leaves it out. */
const OPENAI_SDK = { needs: 'OpenAI and Ollama models need', packages: ['openai'] };

export class OpenAIClient implements ModelClient {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider: string;
  readonly #options: OpenAIClientOptions;
  #sdk: Promise<OpenAI> | undefined;

  constructor(options: OpenAIClientOptions) {
    this.#options = options;
    this.provider = options.provider ?? 'openai';
  }

  generate(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const label = this.provider === 'openai' ? 'OpenAI' : this.provider;
    return withRetries(() => this.#attempt(request, signal), {
      ...this.#options.retry,
      signal,
      label,
    });
  }

  async *#attempt(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelChunk> {
    const sdk = await this.#client();
    // The mapping loads with the SDK, on the first call, not with `cadre`.
    const [mapping, { ToolCallAssembler }] = await Promise.all([
      import('./openai-mapping.js'),
      import('./openai-tool-calls.js'),
    ]);
    const { usageOf } = mapping;
    const stream = await sdk.chat.completions.create(this.#params(request, mapping), {
      signal,
      ...(request.traceHeaders ? { headers: { ...request.traceHeaders } } : {}),
    });
    const calls = new ToolCallAssembler(createCallIdSource());
    let usage: CompletionUsage | null | undefined;
    let finish: string | undefined;
    const response: ModelResponseInfo = {
      provider: this.provider,
      endpoint: this.#options.baseUrl ?? OPENAI_ENDPOINT,
    };
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      if (chunk.id) response.id = chunk.id;
      if (chunk.model) response.model = chunk.model;
      finish = chunk.choices[0]?.finish_reason ?? finish;
      const delta = chunk.choices[0]?.delta as Delta | undefined;
      if (!delta) continue;
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) yield { type: 'thought', text: reasoning };
      if (delta.content) yield { type: 'text', text: delta.content };
      for (const fragment of delta.tool_calls ?? []) calls.add(fragment);
    }
    // The SDK ends the stream quietly on abort; a half-read turn must not look complete.
    signal.throwIfAborted();
    for (const call of calls.finish()) yield { type: 'function_call', call };
    if (finish) yield { type: 'finish', reason: finish };
    yield { type: 'usage', usage: { ...usageOf(usage), response } };
  }

  #params(
    request: ModelRequest,
    { toOpenAIMessages, toOpenAITools }: typeof OpenAIMapping,
  ): ChatCompletionCreateParamsStreaming {
    // topK has no Chat Completions field; loading an agent that sets it for OpenAI warns.
    const { temperature, topP, maxOutputTokens, stopSequences } = request.config;
    return {
      model: request.model,
      messages: toOpenAIMessages(request),
      // Some compatible servers reject an empty tools array.
      ...(request.tools.length > 0 ? { tools: toOpenAITools(request.tools) } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(topP !== undefined ? { top_p: topP } : {}),
      ...(stopSequences?.length ? { stop: stopSequences } : {}),
      ...(maxOutputTokens !== undefined
        ? { [this.#options.maxTokensParam ?? 'max_completion_tokens']: maxOutputTokens }
        : {}),
      stream: true,
      stream_options: { include_usage: true },
    };
  }

  #client(): Promise<OpenAI> {
    this.#sdk ??= optionalImport(() => import('openai'), OPENAI_SDK).then(
      ({ default: Sdk }) =>
        new Sdk({
          apiKey: this.#options.apiKey,
          baseURL: this.#options.baseUrl ?? null,
          // Explicit nulls, so OPENAI_ORG_ID / OPENAI_PROJECT_ID in the environment are not picked up silently.
          organization: null,
          project: null,
          maxRetries: 0,
        }),
    );
    return this.#sdk;
  }
}
