import type { Kysely } from 'kysely';
import type { RunJob, StartExtras } from '../records.js';
import type { Database, ThreadRow } from '../schema/database.js';
import type { StoreDialect } from '../store-context.js';
import { insertRows } from './insert-rows.js';

/**
 * The thread a run starts in, inside the caller's transaction: the user's
 * own, its message counter moved on by `messages` (which also locks it on
 * PostgreSQL), or a new one holding them. Undefined when an existing thread
 * is not the user's.
 */
export async function openThread(
  db: Kysely<Database>,
  input: {
    id: string;
    existing: boolean;
    userId: string;
    title: string;
    messages: number;
    /** The run's agent: a new thread keeps it; one that had none (older) takes it. */
    agent: string;
  },
  time: string,
  dialect: StoreDialect,
): Promise<ThreadRow | undefined> {
  if (input.existing)
    return db
      .updateTable('threads')
      .set((eb) => ({
        message_seq: eb('message_seq', '+', input.messages),
        agent: eb.fn.coalesce('agent', eb.val(input.agent)),
        updated_at: time,
      }))
      .where('id', '=', input.id)
      .where('user_id', '=', input.userId)
      .returningAll()
      .executeTakeFirst();
  const thread: ThreadRow = {
    id: input.id,
    user_id: input.userId,
    title: input.title,
    agent: input.agent,
    message_seq: input.messages,
    created_at: time,
    updated_at: time,
  };
  await insertRows(db, dialect, 'threads', [thread]);
  return thread;
}

/** What a worker does first with a new run: answer this prompt (message `messageSeq` of its thread). */
export const startJob = (
  prompt: string,
  messageSeq: number,
  record?: boolean,
  extras: StartExtras = {},
): RunJob => ({
  kind: 'start',
  prompt,
  messageSeq,
  ...(record ? { record: true } : {}),
  ...(extras.inputs ? { inputs: extras.inputs } : {}),
  ...(extras.conversation ? { conversation: extras.conversation } : {}),
  ...(extras.trace ? { trace: extras.trace } : {}),
});
