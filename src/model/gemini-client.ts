/**
 * Gemini through `@google/genai`. The SDK is imported on first use so that
 * importing Cadre stays cheap; its own retries stay off (we retry in
 * `withRetries`, where we know whether output was already streamed).
 */
import type { GenerateContentResponseUsageMetadata, GoogleGenAI } from '@google/genai';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
  type ModelResponseInfo,
} from './types.js';
import type * as GeminiMapping from './gemini-mapping.js';
import { createCallIdSource } from './call-id.js';
import { FailedResponseError } from './provider-failure.js';
import { optionalImport } from '../util/optional-import.js';
import { withRetries } from './retry.js';
import type { RetryPolicy } from './retry.js';

export interface GeminiClientOptions {
  apiKey: string;
  /** Sent as `httpOptions.baseUrl`, e.g. a proxy or a fake server in tests. */
  baseUrl?: string;
  retry?: RetryPolicy;
}

/** The SDK's own default base URL, named for traces. */
const GEMINI_ENDPOINT = 'https://generativelanguage.googleapis.com';

/** An optional peer: `npm install cadre` leaves it out. */
const GEMINI_SDK = { needs: 'Gemini models need', packages: ['@google/genai'] };

export class GeminiClient implements ModelClient {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'gemini';
  readonly #options: GeminiClientOptions;
  #sdk: Promise<GoogleGenAI> | undefined;
  #mapping: Promise<typeof GeminiMapping> | undefined;

  constructor(options: GeminiClientOptions) {
    this.#options = options;
  }

  generate(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    return withRetries(() => this.#attempt(request, signal), {
      ...this.#options.retry,
      signal,
      label: 'Gemini',
    });
  }

  async *#attempt(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelChunk> {
    const sdk = await this.#client();
    // The mapping loads with the SDK, on the first call, not with `cadre`; once per client.
    this.#mapping ??= import('./gemini-mapping.js');
    const { chunksOf, toGeminiParams, usageOf } = await this.#mapping;
    const params = toGeminiParams(request, signal);
    // The SDK's ApiError drops response headers; keep them for Retry-After.
    // (With a custom fetch the SDK skips its no-timeout undici dispatcher, so
    // Node's default 300 s header/idle timeouts apply; they surface as network errors.)
    let failedHeaders: Headers | undefined;
    const fetchKeepingHeaders: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!response.ok) failedHeaders = response.headers;
      return response;
    };
    params.config = {
      ...params.config,
      httpOptions: { ...params.config?.httpOptions, fetch: fetchKeepingHeaders },
    };
    const nextCallId = createCallIdSource();
    try {
      const stream = await sdk.models.generateContentStream(params);
      let usage: GenerateContentResponseUsageMetadata | undefined;
      let finish: string | undefined;
      const info: ModelResponseInfo = {
        provider: this.provider,
        endpoint: this.#options.baseUrl ?? GEMINI_ENDPOINT,
      };
      for await (const response of stream) {
        if (response.usageMetadata) usage = response.usageMetadata;
        if (response.responseId) info.id = response.responseId;
        if (response.modelVersion) info.model = response.modelVersion;
        finish = response.candidates?.[0]?.finishReason ?? finish;
        yield* chunksOf(response, nextCallId);
      }
      signal.throwIfAborted();
      if (finish) yield { type: 'finish', reason: finish };
      yield { type: 'usage', usage: { ...usageOf(usage), response: info } };
    } catch (error) {
      throw failedHeaders && !signal.aborted
        ? new FailedResponseError(error, failedHeaders)
        : error;
    }
  }

  #client(): Promise<GoogleGenAI> {
    this.#sdk ??= optionalImport(() => import('@google/genai'), GEMINI_SDK).then(
      ({ GoogleGenAI: Sdk }) =>
        new Sdk({
          apiKey: this.#options.apiKey,
          // Explicit, so GOOGLE_GENAI_USE_VERTEXAI in the environment cannot reroute us.
          vertexai: false,
          ...(this.#options.baseUrl ? { httpOptions: { baseUrl: this.#options.baseUrl } } : {}),
        }),
    );
    return this.#sdk;
  }
}
