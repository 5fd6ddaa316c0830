import type { MessageRole, Thread, ThreadMessage } from '../records.js';
import type { CallOptions } from './call-options.js';

export interface NewThread {
  userId: string;
  title: string;
}

export interface NewMessage {
  role: MessageRole;
  content: string;
  runId?: string;
}

/** Conversations and their messages. */
export interface ThreadStore {
  create(thread: NewThread, options?: CallOptions): Promise<Thread>;
  get(threadId: string, userId: string, options?: CallOptions): Promise<Thread | undefined>;
  /** Most recently updated first. */
  list(userId: string, query?: { limit?: number }, options?: CallOptions): Promise<Thread[]>;
  /** Appends at the end of the thread and bumps its `updatedAt`. */
  appendMessage(
    threadId: string,
    message: NewMessage,
    options?: CallOptions,
  ): Promise<ThreadMessage>;
  /** The last `limit` messages of the user's thread, oldest first; undefined when it is not theirs. */
  readHistory(
    threadId: string,
    userId: string,
    limit: number,
    options?: CallOptions,
  ): Promise<ThreadMessage[] | undefined>;
  /** The last `limit` messages (default 50), oldest first. */
  listMessages(
    threadId: string,
    query?: { limit?: number },
    options?: CallOptions,
  ): Promise<ThreadMessage[]>;
}
