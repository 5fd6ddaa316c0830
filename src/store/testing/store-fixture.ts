import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { RunResult } from '../../contracts/run-result.js';
import type { CadreEvent } from '../../events/types.js';
import { emptyUsage } from '../../model/types.js';
import { KyselyStore } from '../kysely-store.js';
import type { RunStatus } from '../records.js';
import type { Database } from '../schema/database.js';
import type { Store } from '../types.js';

/** One open store for one test, plus raw access to its tables for "behind the store's back" checks. */
export interface StoreFixture {
  store: Store;
  db: Kysely<Database>;
  cleanup: () => Promise<void>;
}

export type OpenFixture = () => Promise<StoreFixture>;
export type CurrentFixture = () => StoreFixture;

/**
 * The fixture's store over the same connection, holding an audit key (the
 * backends' fixtures open theirs without one). Not to be closed: the fixture
 * owns the connection.
 */
export function keyedStore(store: Store, auditKey: Buffer = randomBytes(32)): KyselyStore {
  if (!(store instanceof KyselyStore)) throw new Error('keyedStore needs a KyselyStore fixture');
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
  const [approval] = await store.approvals.createBatch([
    {
      runId: seeded.run.id,
      actionId: action.id,
      callId,
      tool: action.tool,
      inputHash: action.inputHash,
      definitionHash: seeded.run.definitionHash,
      userId: seeded.user.id,
    },
  ]);
  if (approval === undefined) throw new Error('createApprovals returned nothing');
  return { ...seeded, action, approval };
}

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
