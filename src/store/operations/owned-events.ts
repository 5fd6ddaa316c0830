import { CompiledQuery, type Kysely } from 'kysely';
import type { CadreEvent } from '../../events/types.js';
import type { RunState } from '../../contracts/run-state.js';
import type { RunEvent } from '../records.js';
import type { Database, RunEventRow } from '../schema/database.js';
import { now, type StoreContext, type StoreDialect } from '../store-context.js';
import type { CheckpointRun, OwnedEvents } from '../types.js';
import { insertRows } from './insert-rows.js';
import { notify, RUN_CHANNEL } from './run-queue.js';
import { storedEventsJson } from '../stored-event.js';

/** The last seq of a batch the owner numbered (firstSeq - 1 when it is empty). */
export const lastSeq = (owned: OwnedEvents): number => owned.firstSeq + owned.events.length - 1;

/** Rows per INSERT: under every database's limit on bound values (5 a row; SQLite's oldest is 999). */
const ROWS_PER_INSERT = 150;

/** The event as numbered: the owner's writer numbers them already, so most need no copy. */
const numbered = (event: CadreEvent, runId: string, seq: number): CadreEvent =>
  event.runId === runId && event.seq === seq ? event : { ...event, runId, seq };

/**
 * Inserts events the run's owner numbered itself. The (run, seq) key
 * rejects a batch from an owner that lost the run to another. `reply` is
 * the run's reply message when this batch ends the run: its final result
 * points at it instead of repeating the answer.
 */
export async function insertOwnedEvents(
  db: Kysely<Database>,
  dialect: StoreDialect,
  runId: string,
  owned: OwnedEvents,
  time: string,
  reply?: string,
): Promise<void> {
  const events = owned.events.map((event, index) => numbered(event, runId, owned.firstSeq + index));
  const json = storedEventsJson(events, reply);
  const rows: RunEventRow[] = events.map((event, index) => ({
    run_id: runId,
    seq: owned.firstSeq + index,
    type: event.type,
    json: json[index] as string,
    created_at: time,
  }));
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT)
    await insertRows(db, dialect, 'run_events', rows.slice(start, start + ROWS_PER_INSERT));
}

/** What an owner writes while it drives a run: events, and (a checkpoint) the state to take it over from. */
interface OwnedWrite {
  owner: string;
  events?: OwnedEvents | undefined;
  state?: RunState;
}

/**
 * The one write an owner makes between a run's start and its end, in one
 * transaction that only the owner can commit: its events not stored yet,
 * with the run's event_seq, and for a checkpoint its state. False when
 * `owner` no longer holds the run: nothing is written.
 */
function writeOwned(
  context: StoreContext,
  runId: string,
  input: OwnedWrite,
  signal?: AbortSignal,
): Promise<boolean> {
  const events = input.events && input.events.events.length > 0 ? input.events : undefined;
  return context.grouped(async (db) => {
    const time = now();
    if (!(await holdRun(db, context.dialect, runId, input, events, time))) return false;
    if (events) {
      await insertOwnedEvents(db, context.dialect, runId, events, time);
      await notify(db, context, RUN_CHANNEL, runId);
    }
    return true;
  }, signal);
}

/**
 * Moves the run's event_seq on (and sets its state) where `owner` holds it;
 * false where it does not. Written by hand: it runs with every batch.
 */
async function holdRun(
  db: Kysely<Database>,
  dialect: StoreDialect,
  runId: string,
  input: OwnedWrite,
  events: OwnedEvents | undefined,
  time: string,
): Promise<boolean> {
  const set: [string, string | number][] = [['updated_at', time]];
  if (events) set.push(['event_seq', lastSeq(events)]);
  if (input.state) set.push(['state', JSON.stringify(input.state)]);
  const parameters = [...set.map(([, value]) => value), runId, input.owner];
  const mark = (index: number): string => (dialect === 'postgres' ? `$${index + 1}` : '?');
  const assignments = set.map(([column], index) => `"${column}" = ${mark(index)}`).join(', ');
  const where = `"id" = ${mark(set.length)} and "owner" = ${mark(set.length + 1)}`;
  const held = await db.executeQuery(
    CompiledQuery.raw(`update "runs" set ${assignments} where ${where} returning "id"`, parameters),
  );
  return held.rows.length > 0;
}

/**
 * A run's events written while its owner drives it (between checkpoints).
 * Undefined when `owner` no longer holds the run: nothing is written.
 */
export async function writeOwnedEvents(
  context: StoreContext,
  runId: string,
  owner: string,
  owned: OwnedEvents,
  signal?: AbortSignal,
): Promise<RunEvent[] | undefined> {
  if (!(await writeOwned(context, runId, { owner, events: owned }, signal))) return undefined;
  return owned.events.map((event, index) => {
    const seq = owned.firstSeq + index;
    return { runId, seq, type: event.type, event: numbered(event, runId, seq) };
  });
}

/**
 * A driven run's checkpoint, by its owner only: the state to take it over
 * from, with the owner's events not stored yet (the same write as
 * writeOwnedEvents, with the state). False when `owner` no longer holds the run.
 */
export function checkpointRun(
  context: StoreContext,
  runId: string,
  input: CheckpointRun,
  signal?: AbortSignal,
): Promise<boolean> {
  return writeOwned(context, runId, input, signal);
}
