import type { RunState } from '../../contracts/run-state.js';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { TestContext } from 'vitest';
import type { RunResult } from '../../contracts/run-result.js';
import type { CadreEvent } from '../../events/types.js';
import { emptyUsage } from '../../model/types.js';
import { KyselyStore } from '../kysely-store.js';
import type { Action, Run, RunStatus } from '../records.js';
import type { Database } from '../schema/database.js';
import type { Store } from '../types.js';
import type { NewApproval } from '../aggregates/approval-store.js';

/**
 * One open store for one test. `db` is raw access to Cadre's tables (the
 * `Database` schema) for the cases that check behind the store's back; a
 * store without it passes the suite with those cases skipped.
 */
export interface StoreFixture {
  store: Store;
  db?: Kysely<Database>;
  cleanup: () => Promise<void>;
}

export type OpenFixture = () => Promise<StoreFixture>;
export type CurrentFixture = () => StoreFixture;

/** The fixture with its tables, or the case is skipped (a store that gives no raw access). */
export function tablesOf(fixture: StoreFixture, ctx: TestContext): Required<StoreFixture> {
  if (fixture.db === undefined) ctx.skip('needs raw access to the tables (StoreFixture.db)');
  return { ...fixture, db: fixture.db };
}

/** The fixture's KyselyStore and tables, or the case is skipped (audit keys are KyselyStore's). */
export function kyselyOf(
  fixture: StoreFixture,
  ctx: TestContext,
): { store: KyselyStore; db: Kysely<Database> } {
  const { store, db } = tablesOf(fixture, ctx);
  if (!(store instanceof KyselyStore)) ctx.skip('needs a KyselyStore (audit keys)');
  return { store, db };
}

/**
 * The fixture's store over the same connection, holding an audit key (the
 * backends' fixtures open theirs without one). Not to be closed: the fixture
 * owns the connection.
 */
export function keyedStore(store: KyselyStore, auditKey: Buffer = randomBytes(32)): KyselyStore {
  return new KyselyStore(store.db, store.dialect, undefined, { auditKey });
}

/** A user with a thread and a run in `status`. */
export async function seedRun(store: Store, userName = 'alice', status: RunStatus = 'planning') {
  const user = await store.auth.ensureUser(userName);
  const thread = await store.threads.create({ userId: user.id, title: `${userName}'s thread` });
  const run = await store.runs.create({
    threadId: thread.id,
    userId: user.id,
    agent: 'assistant',
    status,
    definitionSnapshot: { name: 'assistant', promptConfig: { systemPrompt: 'Be brief.' } },
    definitionHash: 'a'.repeat(64),
    model: 'scripted',
  });
  return { user, thread, run };
}

/** The approval each of `actions` asks of the run's person: what createBatch takes. */
export function approvalsFor(
  run: Pick<Run, 'id' | 'definitionHash'>,
  userId: string,
  actions: readonly Action[],
): NewApproval[] {
  return actions.map((action) => ({
    runId: run.id,
    actionId: action.id,
    callId: action.callId,
    tool: action.tool,
    inputHash: action.inputHash,
    definitionHash: run.definitionHash,
    userId,
  }));
}

/** An action awaiting approval, with its approval (a batch of one). */
export async function seedApproval(store: Store, userName = 'alice', callId = 'call_1') {
  const seeded = await seedRun(store, userName, 'awaiting_confirmation');
  const action = await store.actions.create({
    runId: seeded.run.id,
    callId,
    tool: 'gmail_send',
    args: { to: 'bob@example.com', subject: 'Hi', body: 'Hello' },
    inputHash: 'b'.repeat(64),
    status: 'awaiting_confirmation',
    requiresApproval: true,
  });
  const [approval] = await store.approvals.createBatch(
    approvalsFor(seeded.run, seeded.user.id, [action]),
  );
  if (approval === undefined) throw new Error('createApprovals returned nothing');
  return { ...seeded, action, approval };
}

/** A run's stored state as a paused or running run keeps it. */
export const sampleRunState = (status: RunState['status']): RunState => ({
  version: 1,
  runId: 'r',
  agent: 'assistant',
  model: 'scripted',
  messages: [{ role: 'user', parts: [{ kind: 'text', text: 'hi' }] }],
  turns: 1,
  activeMs: 12,
  startedAt: '2026-01-01T00:00:00.000Z',
  emittedVars: {},
  traces: [],
  usage: { inputTokens: 1, outputTokens: 2, thoughtTokens: 0, totalTokens: 3 },
  alwaysApproved: [],
  nudged: false,
  status,
});

/**
 * A small event of a run, its data as its type carries it: a text delta, a
 * run_started, a final_result (`message` its answer), or a custom event named
 * `type` for any other.
 */
export function sampleEvent(runId: string, type = 'text_delta', message = 'hello'): CadreEvent {
  const envelope = {
    message,
    timestamp: new Date().toISOString(),
    runId,
    executionId: runId,
    depth: 0,
    path: ['assistant'],
    seq: 0,
  };
  switch (type) {
    case 'text_delta':
      return { ...envelope, type, data: { text: message } };
    case 'run_started':
      return { ...envelope, type, data: { agent: 'assistant', model: 'scripted' } };
    case 'final_result':
      return { ...envelope, type, data: { result: sampleResult(runId, message) } };
    default:
      return { ...envelope, type: 'custom', name: type, data: {} };
  }
}

const sampleResult = (runId: string, answer: string): RunResult => ({
  run_id: runId,
  execution_id: runId,
  agent: 'assistant',
  terminate_reason: 'GOAL',
  output: answer,
  final_message: answer,
  emitted_vars: {},
  content: answer,
  response_time_secs: 0,
  traces: [],
  usage: emptyUsage(),
  turns: 1,
});
