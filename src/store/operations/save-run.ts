import { emptyUsage } from '../../model/types.js';
import { runOfRow, toMessage, toThread } from '../rows.js';
import { storedRunState } from '../stored-run-state.js';
import type { MessageRow, RunRow } from '../schema/database.js';
import { later, now, type StoreContext } from '../store-context.js';
import { openThread, startJob } from './run-start.js';
import { insertRows } from './insert-rows.js';
import type { Enqueued, SaveRun } from '../types.js';
import { storeDefinition } from './definitions.js';
import { afterLargeReply } from './large-write.js';
import { insertOwnedEvents } from './owned-events.js';
import { storedSummary } from './run-reply.js';

/**
 * Stores a run its own process started, in one transaction: the thread (new
 * or the user's), the prompt (and, for a finished run, the reply), the run
 * and its events so far. An owned run carries its start job and a lease, so
 * another process takes it over should this one die. Undefined when the
 * thread is not the user's.
 */
export function saveRun(
  context: StoreContext,
  input: SaveRun,
  signal?: AbortSignal,
): Promise<Enqueued | undefined> {
  const { outcome } = input;
  const reply = outcome.kind === 'finished' ? outcome.message : undefined;
  const messages = reply === undefined ? 1 : 2;
  const stored = context.grouped(async (db) => {
    const time = now();
    const thread = await openThread(
      db,
      { ...input.thread, userId: input.userId, messages, agent: input.agent },
      time,
      context.dialect,
    );
    if (thread === undefined) return undefined;
    const remember = await storeDefinition(
      context,
      db,
      input.definitionHash,
      input.definitionSnapshot,
      time,
    );
    const promptSeq = Number(thread.message_seq) - messages + 1;
    const rows: MessageRow[] = [
      {
        id: context.newId(),
        thread_id: thread.id,
        seq: promptSeq,
        role: 'user',
        content: input.prompt,
        run_id: input.runId,
        created_at: time,
      },
    ];
    if (reply !== undefined)
      rows.push({
        id: context.newId(),
        thread_id: thread.id,
        seq: promptSeq + 1,
        role: 'assistant',
        content: reply,
        run_id: input.runId,
        created_at: time,
      });
    await insertRows(db, context.dialect, 'messages', rows);
    const job =
      outcome.kind === 'owned' ? startJob(input.prompt, promptSeq, input.record, input) : undefined;
    const usage = outcome.kind === 'owned' ? (outcome.state?.usage ?? emptyUsage()) : outcome.usage;
    const state = outcome.state ?? null;
    const run: RunRow = {
      id: input.runId,
      thread_id: thread.id,
      user_id: input.userId,
      agent: input.agent,
      definition_hash: input.definitionHash,
      model: input.model,
      event_seq: input.events.length,
      created_at: time,
      updated_at: time,
      cancel_requested: 0,
      state: state === null ? null : JSON.stringify(state),
      usage: JSON.stringify(usage),
      job: job === undefined ? null : JSON.stringify(job),
      ...(outcome.kind === 'owned'
        ? {
            status: 'planning',
            summary: '',
            error_code: null,
            finished_at: null,
            owner: outcome.owner,
            lease_until: later(outcome.leaseMs),
          }
        : {
            status: outcome.status,
            summary: storedSummary(outcome.status, outcome.summary, reply),
            error_code: outcome.errorCode ?? null,
            finished_at: time,
            owner: null,
            lease_until: null,
          }),
    };
    await insertRows(db, context.dialect, 'runs', [run]);
    // No notify: nobody elsewhere can be waiting on a run that was not stored until now.
    await insertOwnedEvents(
      db,
      context.dialect,
      input.runId,
      { firstSeq: 1, events: input.events },
      time,
      reply,
    );
    const enqueued = {
      thread: toThread(thread),
      message: toMessage(rows[0] as MessageRow),
      // Its usage and job as the values just written; its state read lazily from the text, as any row's.
      run: {
        ...runOfRow(run, {
          state: run.state === null ? null : storedRunState(run.id, run.state),
          usage,
          job,
        }),
        ...(outcome.kind === 'finished' ? { summary: outcome.summary } : {}),
      },
    };
    return { enqueued, remember };
  }, signal);
  // The definition is remembered as written only once the transaction has committed.
  return stored.then(async (result) => {
    result?.remember();
    await afterLargeReply(context, reply);
    return result?.enqueued;
  });
}
