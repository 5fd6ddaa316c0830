import type { Api } from '../api/api.js';
import {
  initialChatState,
  snapshotter,
  type ChatSnapshot,
  type ChatState,
} from './chat-session-state.js';

export const CONFLICT_TEXT = 'This approval was already decided in another tab or window.';

export interface ChatSessionOptions {
  /** The routes, with the bearer token and the fetch they go through. */
  api: Api;
  /** Where an approval card's typed feedback waits; cleared once the decision is stored. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** Aborting it disposes the session: every fetch and stream stops. */
  signal?: AbortSignal;
}

/** What the page around the chat decides: the agent to talk to and what a run changes there. */
export interface ChatContext {
  agent?: string;
  /** A new thread was created by a run: show it at its own address (then `open` it). */
  onThreadCreated?(threadId: string): void;
  onThreadsChanged?(): void;
}

/** One chat session's state and bookkeeping, shared by its parts (streaming, loading, sending, deciding). */
export interface ChatCore {
  readonly api: Api;
  readonly storage: ChatSessionOptions['storage'];
  readonly listeners: Set<() => void>;
  /** The state as drawn last; changed only through `set`. */
  readonly state: ChatState;
  context: ChatContext;
  disposed: boolean;
  /** The thread shown now. */
  threadId: string | undefined;
  // The run this page is following already, so a reload of the thread does not attach twice.
  attached: string | undefined;
  // Bumped on every thread switch: a stream of the old thread stops drawing here.
  generation: number;
  // A thread this session's own run created: opening it keeps what is on screen.
  adoptedThread: string | undefined;
  streams: AbortController | undefined;
  loading: AbortController | undefined;
  getSnapshot(): ChatSnapshot;
  set(patch: Partial<ChatState>): void;
  /** Made on first use, so a stopped session opens new requests under a fresh signal. */
  streamSignal(): AbortSignal;
}

export function createChatCore(options: ChatSessionOptions): ChatCore {
  let state: ChatState = initialChatState();
  let snapshot: ChatSnapshot | undefined;
  const snapshotOf = snapshotter();
  const core: ChatCore = {
    api: options.api,
    storage: options.storage,
    listeners: new Set(),
    get state() {
      return state;
    },
    context: {},
    disposed: false,
    threadId: undefined,
    attached: undefined,
    generation: 0,
    adoptedThread: undefined,
    streams: undefined,
    loading: undefined,
    getSnapshot: () => (snapshot ??= snapshotOf(state)),
    set: (patch) => {
      if (core.disposed) return;
      state = { ...state, ...patch };
      snapshot = undefined;
      for (const listener of [...core.listeners]) listener();
    },
    streamSignal: () => (core.streams ??= new AbortController()).signal,
  };
  return core;
}
