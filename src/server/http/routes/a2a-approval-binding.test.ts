import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunState } from '../../../contracts/run-state.js';
import { ScriptedModel, type ScriptedTurn } from '../../../model/scripted-model.js';
import type { KyselyStore } from '../../../store/kysely-store.js';
import {
  startAgentsTestServer,
  WRITER_AGENT,
  type AgentsTestServer,
} from '../testing/real-test-server.js';
import { answered, promptOf, sendMessage } from './testing/a2a-test-server.js';

let live: AgentsTestServer<'ann'>;

/** "write <path>" asks to write one file. */
const model = new ScriptedModel(
  (r): ScriptedTurn => {
    if (answered(r)) return { parts: [{ text: 'Tool said: {{toolResult}}' }] };
    const path = promptOf(r).split(/\s+/)[1] ?? 'x.txt';
    return { parts: [{ functionCall: { name: 'write_file', args: { path, content: 'hi' } } }] };
  },
  { uniqueCallIds: true },
);

beforeAll(async () => {
  live = await startAgentsTestServer({
    prefix: 'cadre-a2a-binding-',
    agents: { writer: WRITER_AGENT },
    users: ['ann'],
    run: { modelClient: model },
  });
});
afterAll(() => live.close());

/** One A2A 1.0 SendMessage to the writer, as ann; its result's task. */
const send = (text: string, task?: { id: string; contextId: string }) =>
  sendMessage(`${live.server.url}/a2a/writer`, live.users.ann.token, text, task);

const written = (name: string) => readFile(join(live.dir, name), 'utf8').catch(() => undefined);

describe('A2A decisions: an approval bound to what was approved (scripted model, real SQLite)', () => {
  it('"approve" on a task whose waiting call was changed in the database writes nothing and asks again; the next "approve" writes once', async () => {
    const asked = await send('write a2a-ok.txt');
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    // Someone with the database points the waiting call at another file.
    const db = (live.store as KyselyStore).db;
    const row = await sql<{ state: string }>`select state from runs where id = ${asked.id}`.execute(
      db,
    );
    const state = JSON.parse(row.rows[0]?.state ?? '{}') as RunState;
    const call = state.pendingTurn?.calls[0];
    if (!call) throw new Error('no waiting call stored');
    call.args = { ...call.args, path: 'a2a-evil.txt' };
    await sql`update runs set state = ${JSON.stringify(state)} where id = ${asked.id}`.execute(db);

    const refused = await send('approve', asked);
    expect(refused).toMatchObject({ id: asked.id, status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
    expect([await written('a2a-ok.txt'), await written('a2a-evil.txt')]).toEqual([
      undefined,
      undefined,
    ]);
    const pending = (await live.service.pendingApprovals(live.users.ann.id)).filter(
      (a) => a.runId === asked.id,
    );
    expect(pending.map((a) => a.preview)).toEqual([expect.stringContaining('a2a-evil.txt')]);

    // Asked again about the call as it now is; approving that writes it, once.
    const done = await send('approve', asked);
    expect(done).toMatchObject({ id: asked.id, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(await written('a2a-evil.txt')).toBe('hi');
    expect(await written('a2a-ok.txt')).toBeUndefined();
  });
});
