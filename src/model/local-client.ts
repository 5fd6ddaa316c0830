/**
 * `local:` models: a GGUF file run in-process by node-llama-cpp (an optional
 * peer, imported on the first call). Tool calls are grammar-constrained, so
 * they always parse; when the agent can finish only through `complete_task`
 * every turn must be a call. Tokens are counted by the model's tokenizer,
 * cost nothing, and a request longer than the context window is refused as
 * cloud providers refuse it, so the run compacts and sends again.
 */
import type { Token } from 'node-llama-cpp';
import { ModelError } from '../errors/model-error.js';
import { COMPLETE_TASK } from '../contracts/finish-tools.js';
import { createCallIdSource } from './call-id.js';
import { chunkChannel } from './chunk-channel.js';
import { forcedCallWrapper } from './local-forced-call.js';
import { LocalModelHost, type LoadedModel, type LocalHostOptions } from './local-model-host.js';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
  type ModelResponseInfo,
} from './types.js';

/** Room kept for the answer when the request gives no output limit. */
const ANSWER_RESERVE = 1_024;

export interface LocalClientOptions extends LocalHostOptions {
  /** The name traces and the page show: the file or URI as given. */
  label: string;
}

export class LocalClient implements ModelClient {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'local';
  readonly #host: LocalModelHost;
  readonly #label: string;

  constructor(options: LocalClientOptions) {
    this.#host = new LocalModelHost(options);
    this.#label = options.label;
  }

  /** The tokens one request and its answer must fit: the loaded context, at most the GGUF's window (loads the model). */
  async contextWindow(): Promise<number> {
    return (await this.#host.ready()).contextWindow;
  }

  /** Unloads the model now instead of when idle. */
  close(): Promise<void> {
    return this.#host.close();
  }

  generate(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const channel = chunkChannel<ModelChunk>();
    this.#run(request, signal, channel.push).then(
      () => channel.end(),
      (error: unknown) => channel.end(signal.aborted ? abortReason(signal) : failure(error)),
    );
    return channel;
  }

  async #run(
    request: ModelRequest,
    signal: AbortSignal,
    push: (chunk: ModelChunk) => void,
  ): Promise<void> {
    const loaded = await this.#host.ready();
    signal.throwIfAborted();
    const { lib, model } = loaded;
    const { chatHistoryOf, functionsOf } = await import('./local-history.js');
    const history = chatHistoryOf(request);
    const functions = request.tools.length > 0 ? functionsOf(request.tools) : undefined;
    const forced = request.tools.some((tool) => tool.name === COMPLETE_TASK);
    const chatWrapper = forced ? forcedCallWrapper(loaded.chatWrapper, lib) : loaded.chatWrapper;
    const prompt = chatWrapper
      .generateContextState({
        chatHistory: history,
        ...(functions ? { availableFunctions: functions, documentFunctionParams: true } : {}),
      })
      .contextText.tokenize(model.tokenizer);
    const room = roomFor(loaded, prompt.length, request.config.maxOutputTokens);
    const sequence = await this.#host.acquire(prompt, signal);
    const chat = new lib.LlamaChat({
      contextSequence: sequence,
      chatWrapper,
      autoDisposeSequence: false,
    });
    let outputTokens = 0;
    try {
      const { config } = request;
      const common = {
        signal,
        stopOnAbortSignal: false,
        maxTokens: room,
        onToken: (tokens: Token[]) => {
          outputTokens += tokens.length;
        },
        onResponseChunk: (chunk: {
          type: 'segment' | undefined;
          segmentType?: string;
          text: string;
        }) => {
          if (chunk.text === '') return;
          push(
            chunk.type === 'segment' && chunk.segmentType === 'thought'
              ? { type: 'thought', text: chunk.text }
              : { type: 'text', text: chunk.text },
          );
        },
        ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
        ...(config.topP !== undefined ? { topP: config.topP } : {}),
        ...(config.topK !== undefined ? { topK: config.topK } : {}),
        ...(config.stopSequences?.length ? { customStopTriggers: config.stopSequences } : {}),
        ...(config.thinkingBudget !== undefined && config.thinkingBudget >= 0
          ? { budgets: { thoughtTokens: config.thinkingBudget } }
          : {}),
        // The request was measured to fit: never drop its start silently.
        contextShift: {
          strategy: () => Promise.reject(overflow(prompt.length, loaded.contextWindow)),
        },
      } as const;
      const response = functions
        ? await chat.generateResponse(history, {
            ...common,
            functions,
            documentFunctionParams: true,
          })
        : await chat.generateResponse(history, common);
      signal.throwIfAborted();
      const nextId = createCallIdSource();
      for (const call of response.functionCalls ?? []) {
        // Call tokens are not streamed as text: count them from the call as the model wrote it.
        outputTokens += lib.LlamaText.fromJSON(call.raw).tokenize(model.tokenizer).length;
        push({
          type: 'function_call',
          call: {
            kind: 'function_call',
            id: nextId(),
            name: call.functionName,
            args: isRecord(call.params) ? call.params : {},
          },
        });
      }
      const info: ModelResponseInfo = {
        provider: this.provider,
        model: this.#label,
      };
      push({ type: 'finish', reason: response.metadata.stopReason });
      push({
        type: 'usage',
        usage: {
          inputTokens: prompt.length,
          outputTokens,
          thoughtTokens: 0,
          totalTokens: prompt.length + outputTokens,
          costUsd: 0,
          response: info,
        },
      });
    } finally {
      chat.dispose({ disposeSequence: false });
      this.#host.release(sequence);
    }
  }
}

/** Output tokens allowed: the request's limit, within what the window has left. */
function roomFor(loaded: LoadedModel, promptTokens: number, maxOutput: number | undefined): number {
  const left = loaded.contextWindow - promptTokens;
  if (left < Math.min(maxOutput ?? ANSWER_RESERVE, ANSWER_RESERVE) || left <= 0)
    throw overflow(promptTokens, loaded.contextWindow);
  return maxOutput === undefined ? left : Math.min(maxOutput, left);
}

function overflow(inputTokens: number, maxTokens: number): ModelError {
  return new ModelError(
    `The request is ${inputTokens} tokens, too long for the local model's context window of ${maxTokens} tokens`,
    { status: 400, contextOverflow: { inputTokens, maxTokens } },
  );
}

function failure(error: unknown): unknown {
  if (error instanceof ModelError || !(error instanceof Error)) return error;
  if (error.name === 'ConfigError' || 'code' in error) return error;
  return new ModelError(`The local model failed: ${error.message}`, { cause: error });
}

function abortReason(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('Aborted', 'AbortError');
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
