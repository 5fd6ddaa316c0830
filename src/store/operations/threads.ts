import type { Kysely } from 'kysely';
import type { Database } from '../schema/database.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { MessageRole, Thread, ThreadMessage } from '../records.js';
import { toMessage, toThread } from '../rows.js';
import { now, writeTransaction, type StoreContext } from '../store-context.js';

export async function createThread(
  context: StoreContext,
  input: { userId: string; title: string },
  signal?: AbortSignal,
): Promise<Thread> {
  signal?.throwIfAborted();
  const time = now();
  const row = {
    id: context.newId(),
    user_id: input.userId,
    title: input.title,
    agent: null,
    message_seq: 0,
    created_at: time,
    updated_at: time,
  };
  await context.db.insertInto('threads').values(row).execute();
  return toThread(row);
}

export async function getThread(
  context: StoreContext,
  userId: string,
  threadId: string,
  signal?: AbortSignal,
): Promise<Thread | undefined> {
  const row = await context.db
    .selectFrom('threads')
    .selectAll()
    .where('id', '=', threadId)
    .where('user_id', '=', userId)
    .executeTakeFirst({ signal });
  return row && toThread(row);
}

export async function listThreads(
  context: StoreContext,
  userId: string,
  limit = 100,
  signal?: AbortSignal,
): Promise<Thread[]> {
  const rows = await context.db
    .selectFrom('threads')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute({ signal });
  return rows.map(toThread);
}

export function appendMessage(
  context: StoreContext,
  input: { threadId: string; role: MessageRole; content: string; runId?: string },
  signal?: AbortSignal,
): Promise<ThreadMessage> {
  return writeTransaction(
    context,
    async (db) => {
      const message = await insertMessage(context, db, input, now());
      if (message === undefined)
        throw new ValidationError([{ path: 'threadId', message: 'no such thread' }]);
      return message;
    },
    signal,
  );
}

/**
 * Appends a message inside the caller's transaction. Bumping the thread's
 * counter hands out the seq and locks the thread row (PostgreSQL).
 * Undefined when there is no such thread.
 */
export async function insertMessage(
  context: StoreContext,
  db: Kysely<Database>,
  input: { threadId: string; role: MessageRole; content: string; runId?: string },
  time: string,
): Promise<ThreadMessage | undefined> {
  const thread = await db
    .updateTable('threads')
    .set((eb) => ({ message_seq: eb('message_seq', '+', 1), updated_at: time }))
    .where('id', '=', input.threadId)
    .returning('message_seq')
    .executeTakeFirst();
  if (thread === undefined) return undefined;
  const row = {
    id: context.newId(),
    thread_id: input.threadId,
    seq: Number(thread.message_seq),
    role: input.role,
    content: input.content,
    run_id: input.runId ?? null,
    created_at: time,
  };
  await db.insertInto('messages').values(row).execute();
  return toMessage(row);
}

export async function listMessages(
  context: StoreContext,
  threadId: string,
  limit = 50,
  signal?: AbortSignal,
): Promise<ThreadMessage[]> {
  const rows = await context.db
    .selectFrom('messages')
    .selectAll()
    .where('thread_id', '=', threadId)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute({ signal });
  return rows.reverse().map(toMessage);
}

/**
 * The last `limit` messages of a thread, oldest first, in one statement that
 * also checks the thread is the user's (undefined when it is not).
 */
export async function readHistory(
  context: StoreContext,
  userId: string,
  threadId: string,
  limit: number,
  signal?: AbortSignal,
): Promise<ThreadMessage[] | undefined> {
  const rows = await context.db
    .selectFrom('threads')
    .leftJoin('messages', 'messages.thread_id', 'threads.id')
    .select([
      'threads.id as thread',
      'messages.id',
      'messages.seq',
      'messages.role',
      'messages.content',
      'messages.run_id',
      'messages.created_at',
    ])
    .where('threads.id', '=', threadId)
    .where('threads.user_id', '=', userId)
    .orderBy('messages.seq', 'desc')
    .limit(limit)
    .execute({ signal });
  if (rows.length === 0) return undefined;
  return rows
    .filter((row) => row.id !== null)
    .reverse()
    .map((row) =>
      toMessage({
        id: row.id ?? '',
        thread_id: row.thread,
        seq: Number(row.seq),
        role: row.role ?? 'user',
        content: row.content ?? '',
        run_id: row.run_id,
        created_at: row.created_at ?? '',
      }),
    );
}
