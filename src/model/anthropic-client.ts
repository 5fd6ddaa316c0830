/**
 * Claude through `@anthropic-ai/sdk`'s streaming Messages API. The SDK is
 * imported on first use; its own retries are off because we retry in
 * `withRetries`, where we know whether output was already streamed.
 */
import type Anthropic from '@anthropic-ai/sdk';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
} from './types.js';
import { createCallIdSource } from './call-id.js';
import { optionalImport } from '../util/optional-import.js';
import { withRetries } from './retry.js';
import type { RetryPolicy } from './retry.js';

export interface AnthropicClientOptions {
  apiKey: string;
  /** e.g. a proxy, or a fake server in tests; the SDK's default (api.anthropic.com) when omitted. */
  baseUrl?: string;
  /** max_tokens when a request sets no maxOutputTokens (Anthropic requires one). Default 8192. */
  maxTokens?: number;
  retry?: RetryPolicy;
}

/** An optional peer: `npm install cadre` leaves it out. */
const ANTHROPIC_SDK = { needs: 'Claude models need', packages: ['@anthropic-ai/sdk'] };

export class AnthropicClient implements ModelClient {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'anthropic';
  readonly #options: AnthropicClientOptions;
  #sdk: Promise<Anthropic> | undefined;

  constructor(options: AnthropicClientOptions) {
    this.#options = options;
  }

  generate(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    return withRetries(() => this.#attempt(request, signal), {
      ...this.#options.retry,
      signal,
      label: 'Anthropic',
    });
  }

  async *#attempt(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelChunk> {
    const sdk = await this.#client();
    // The request and stream code loads with the SDK, on the first call, not with `cadre`.
    const [
      { DEFAULT_MAX_TOKENS, toAnthropicParams },
      { AnthropicStreamReader },
      { anthropicFailure },
    ] = await Promise.all([
      import('./anthropic-mapping.js'),
      import('./anthropic-stream.js'),
      import('./anthropic-failure.js'),
    ]);
    const params = toAnthropicParams(request, this.#options.maxTokens ?? DEFAULT_MAX_TOKENS);
    const reader = new AnthropicStreamReader(createCallIdSource(), {
      provider: this.provider,
      // The SDK's own default, named for traces.
      endpoint: this.#options.baseUrl ?? 'https://api.anthropic.com',
    });
    try {
      const stream = await sdk.messages.create(params, {
        signal,
        ...(request.traceHeaders ? { headers: { ...request.traceHeaders } } : {}),
      });
      for await (const event of stream) yield* reader.read(event);
    } catch (error) {
      throw anthropicFailure(error);
    }
    // The SDK ends the stream quietly on abort; a half-read turn must not look complete.
    signal.throwIfAborted();
    yield* reader.finish();
  }

  #client(): Promise<Anthropic> {
    this.#sdk ??= optionalImport(() => import('@anthropic-ai/sdk'), ANTHROPIC_SDK).then(
      ({ default: Sdk }) =>
        new Sdk({
          apiKey: this.#options.apiKey,
          // Explicit null: ANTHROPIC_BASE_URL in the process environment must not reroute us
          // (the resolver reads it from the environment it was given).
          baseURL: this.#options.baseUrl ?? null,
          maxRetries: 0,
        }),
    );
    return this.#sdk;
  }
}
