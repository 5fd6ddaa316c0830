/**
 * One loaded local model and a bounded pool of sequences over one context:
 * every run of the process that resolves the same `local:` model string
 * (resolvers cache clients) shares the weights, each generation borrows a
 * sequence and waits when all are busy. The model unloads after it has
 * been idle for a while and loads again on the next call.
 */
import type {
  ChatWrapper,
  Llama,
  LlamaContext,
  LlamaContextSequence,
  LlamaModel,
  Token,
} from 'node-llama-cpp';
import type * as NodeLlamaCpp from 'node-llama-cpp';
import { optionalImport } from '../util/optional-import.js';

export type LlamaLibrary = typeof NodeLlamaCpp;

/** An optional peer: `npm install cadre` leaves it out. */
export const LLAMA_PACKAGE = { needs: 'Local models (local:) need', packages: ['node-llama-cpp'] };

export interface LocalHostOptions {
  /** The GGUF file to load (resolved on first use: a pulled model is looked up then). */
  modelPath: () => Promise<string>;
  /** Loads the library; tests swap it to show the missing-package error. */
  load?: () => Promise<LlamaLibrary>;
  /** Sequences (parallel generations) in the pool. */
  sequences?: number;
  /** CPU threads for generation; unset: {@link defaultThreads} of the machine's cores. */
  threads?: number;
  /** The largest context to allocate per sequence; the model's own window when smaller. */
  maxContext?: number;
  /** Unload after this long with nothing generating. */
  idleMs?: number;
}

export interface LoadedModel {
  lib: LlamaLibrary;
  model: LlamaModel;
  context: LlamaContext;
  chatWrapper: ChatWrapper;
  /** Tokens one sequence holds: what a request plus its answer must fit. */
  contextWindow: number;
  /** `<arch>.context_length` from the GGUF metadata. */
  trainedWindow: number;
}

const DEFAULT_SEQUENCES = 2;
const DEFAULT_MAX_CONTEXT = 16_384;
export const DEFAULT_IDLE_MS = 5 * 60_000;

/**
 * Threads when CADRE_LOCAL_THREADS is unset: the cores llama.cpp counts for
 * math (physical ones) less one, left for the event loop that streams the
 * answer and runs the tools; at least one.
 */
export const defaultThreads = (mathCores: number): number => Math.max(1, Math.floor(mathCores) - 1);

interface Waiter {
  tokens: readonly Token[];
  resolve: (sequence: LlamaContextSequence) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal;
}

export class LocalModelHost {
  readonly #options: LocalHostOptions;
  #loading: Promise<LoadedModel> | undefined;
  #llama: Promise<Llama> | undefined;
  #free: LlamaContextSequence[] = [];
  #busy = 0;
  #waiters: Waiter[] = [];
  #idle: NodeJS.Timeout | undefined;

  constructor(options: LocalHostOptions) {
    this.#options = options;
  }

  /** The loaded model, loading it (once, however many callers wait) on first use. */
  ready(): Promise<LoadedModel> {
    clearTimeout(this.#idle);
    this.#loading ??= this.#load().catch((error: unknown) => {
      this.#loading = undefined;
      throw error;
    });
    return this.#loading;
  }

  async #load(): Promise<LoadedModel> {
    const load = this.#options.load ?? (() => import('node-llama-cpp'));
    const lib = await optionalImport(load, LLAMA_PACKAGE);
    const modelPath = await this.#options.modelPath();
    this.#llama ??= lib.getLlama({
      build: 'never',
      progressLogs: false,
      logLevel: lib.LlamaLogLevel.error,
    });
    const llama = await this.#llama;
    const model = await llama.loadModel({ modelPath });
    const sequences = this.#options.sequences ?? DEFAULT_SEQUENCES;
    const trainedWindow = model.trainContextSize;
    const context = await model.createContext({
      sequences,
      contextSize: {
        max: Math.min(trainedWindow, this.#options.maxContext ?? DEFAULT_MAX_CONTEXT),
      },
      threads: this.#options.threads ?? defaultThreads(llama.cpuMathCores),
    });
    this.#free = Array.from({ length: sequences }, () => context.getSequence());
    const chatWrapper = lib.resolveChatWrapper(model) ?? new lib.GeneralChatWrapper();
    return { lib, model, context, chatWrapper, contextWindow: context.contextSize, trainedWindow };
  }

  /**
   * A free sequence, the one already holding the longest start of `tokens`
   * (the same conversation's earlier turn) so its evaluated prefix is reused.
   * Waits while all are busy; the wait ends with the signal.
   */
  acquire(tokens: readonly Token[], signal: AbortSignal): Promise<LlamaContextSequence> {
    signal.throwIfAborted();
    clearTimeout(this.#idle);
    if (this.#free.length > 0) return Promise.resolve(this.#take(tokens));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { tokens, resolve, reject, signal };
      const onAbort = (): void => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      waiter.resolve = (sequence) => {
        signal.removeEventListener('abort', onAbort);
        resolve(sequence);
      };
      this.#waiters.push(waiter);
    });
  }

  release(sequence: LlamaContextSequence): void {
    this.#busy--;
    this.#free.push(sequence);
    const next = this.#waiters.shift();
    if (next) {
      next.resolve(this.#take(next.tokens));
      return;
    }
    if (this.#busy === 0) this.#scheduleUnload();
  }

  #take(tokens: readonly Token[]): LlamaContextSequence {
    let best = 0;
    let bestShared = -1;
    this.#free.forEach((sequence, index) => {
      const shared = sharedPrefix(sequence.contextTokens, tokens);
      if (shared > bestShared) [best, bestShared] = [index, shared];
    });
    const [sequence] = this.#free.splice(best, 1);
    this.#busy++;
    // A pool is never empty here: callers check, and release refills before handing on.
    return sequence as LlamaContextSequence;
  }

  #scheduleUnload(): void {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => void this.close(), this.#options.idleMs ?? DEFAULT_IDLE_MS);
    // An idle model never keeps the process alive.
    this.#idle.unref();
  }

  /** Unloads the model (the next call loads it again). */
  async close(): Promise<void> {
    clearTimeout(this.#idle);
    const loading = this.#loading;
    if (!loading || this.#busy > 0) return;
    this.#loading = undefined;
    this.#free = [];
    const loaded = await loading.catch(() => undefined);
    await loaded?.model.dispose();
  }
}

function sharedPrefix(a: readonly Token[], b: readonly Token[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}
