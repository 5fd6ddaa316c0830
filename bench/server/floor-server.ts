import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ModelClient } from '../../src/model/types.js';

/** One transaction of three inserts, on whichever database the floor runs against. */
export interface FloorDatabase {
  insertRun(row: { threadId: string; title: string; runId: string; reply: string }): Promise<void>;
  close(): Promise<void>;
}

/**
 * The floor Cadre is measured against: a bare Fastify route that parses the
 * same request, makes the same model call and commits one transaction of
 * three inserts (thread, message, run). No auth, no events, no queue.
 */
export function floorServer(model: ModelClient, database: FloorDatabase): FastifyInstance {
  const app = Fastify({ logger: false });
  const run = async (prompt: string) => {
    let reply = '';
    for await (const chunk of model.generate(
      {
        model: 'bench',
        messages: [{ role: 'user', parts: [{ kind: 'text', text: prompt }] }],
        tools: [],
        config: {},
      },
      AbortSignal.timeout(10_000),
    ))
      if (chunk.type === 'text') reply += chunk.text;
    const row = { threadId: randomUUID(), title: prompt.slice(0, 80), runId: randomUUID(), reply };
    await database.insertRun(row);
    return {
      ok: true,
      runId: row.runId,
      threadId: row.threadId,
      status: 'completed',
      summary: reply,
    };
  };
  app.post('/api/agent/run', (request) => run((request.body as { prompt: string }).prompt));
  app.post('/api/agent/run/stream', async (request, reply) => {
    const result = await run((request.body as { prompt: string }).prompt);
    return reply.type('application/x-ndjson').send(`${JSON.stringify(result)}\n`);
  });
  return app;
}

const TABLES = [
  'create table if not exists floor_threads (id text primary key, title text not null, created_at text not null)',
  'create table if not exists floor_messages (id text primary key, thread_id text not null, content text not null, created_at text not null)',
  'create table if not exists floor_runs (id text primary key, thread_id text not null, summary text not null, created_at text not null)',
];

export async function sqliteFloor(file: string): Promise<FloorDatabase> {
  const { default: Database } = await import('libsql');
  const db = new Database(file, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  for (const statement of TABLES) db.exec(statement);
  const thread = db.prepare('insert into floor_threads values (?, ?, ?)');
  const message = db.prepare('insert into floor_messages values (?, ?, ?, ?)');
  const run = db.prepare('insert into floor_runs values (?, ?, ?, ?)');
  const begin = db.prepare('begin immediate');
  const commit = db.prepare('commit');
  return {
    insertRun(row) {
      const time = new Date().toISOString();
      begin.run();
      thread.run(row.threadId, row.title, time);
      message.run(randomUUID(), row.threadId, row.title, time);
      run.run(row.runId, row.threadId, row.reply, time);
      commit.run();
      return Promise.resolve();
    },
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}

export async function postgresFloor(url: string): Promise<FloorDatabase> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  for (const statement of TABLES) await pool.query(statement);
  return {
    async insertRun(row) {
      const time = new Date().toISOString();
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query('insert into floor_threads values ($1, $2, $3)', [
          row.threadId,
          row.title,
          time,
        ]);
        await client.query('insert into floor_messages values ($1, $2, $3, $4)', [
          randomUUID(),
          row.threadId,
          row.title,
          time,
        ]);
        await client.query('insert into floor_runs values ($1, $2, $3, $4)', [
          row.runId,
          row.threadId,
          row.reply,
          time,
        ]);
        await client.query('commit');
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
