import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { GeminiClient } from '../../src/model/gemini-client.js';
import { createRunService } from '../../src/server/core/create-run-service.js';
import { buildServer } from '../../src/server/http/build-server.js';
import { openKyselyStore } from '../../src/store/open-store.js';
import { createQueryCounter } from '../../src/store/query-counter.js';
import { floorServer, postgresFloor, sqliteFloor } from './floor-server.js';
import { oneTurnModel } from './one-turn-model.js';

/** What the parent asks a target process to serve. */
export interface TargetConfig {
  kind: 'cadre' | 'floor';
  /** A SQLite file or a postgres:// URL. */
  url: string;
  /** A fake Gemini endpoint to call with the real SDK, instead of the in-process scripted model. */
  geminiBaseUrl?: string;
}

export type TargetReply =
  | { type: 'ready'; port: number; token: string }
  | {
      type: 'stats';
      cpuMs: number;
      heapUsed: number;
      statements: number;
      commits: number;
      storedBytes: number;
      eventBytes: number;
      runs: number;
    };

const send = (reply: TargetReply): void => void process.send?.(reply);

/** One server under load, in its own process so its CPU time is its own. */
async function main(config: TargetConfig): Promise<void> {
  const cwd = await mkdtemp(join(tmpdir(), 'cadre-bench-target-'));
  const postgres = config.url.startsWith('postgres');
  if (config.kind === 'floor') {
    const database = postgres ? await postgresFloor(config.url) : await sqliteFloor(config.url);
    const model = config.geminiBaseUrl
      ? new GeminiClient({ apiKey: 'bench', baseUrl: config.geminiBaseUrl })
      : oneTurnModel();
    const app = floorServer(model, database);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    send({
      type: 'ready',
      port: typeof address === 'object' && address ? address.port : 0,
      token: '',
    });
    process.on('message', (message: { type: string }) => {
      if (message.type === 'stats') send(stats(0, 0, 0, 0, 0));
      else
        void app
          .close()
          .then(() => database.close())
          .then(() => process.exit(0));
    });
    return;
  }
  await mkdir(join(cwd, 'agents'));
  await writeFile(
    join(cwd, 'agents/chat.yaml'),
    'name: chat\ndescription: A one-turn chat\nrunConfig:\n  max_turns: 3\n',
  );
  const counter = createQueryCounter();
  const store = await openKyselyStore({ url: config.url, queryCounter: counter });
  const service = await createRunService({
    store,
    cwd,
    ...(config.geminiBaseUrl
      ? {
          // As `cadre serve` runs it: the model resolved from the environment, the real SDK.
          env: {
            HOME: cwd,
            GEMINI_API_KEY: 'bench',
            GOOGLE_GEMINI_BASE_URL: config.geminiBaseUrl,
            CADRE_MODEL: 'gemini-2.5-flash',
          },
        }
      : { env: { HOME: cwd }, modelClient: oneTurnModel() }),
  });
  const app = buildServer({
    service,
    store,
    log: { level: 'silent' },
    rateLimit: { max: 1_000_000, timeWindow: '1 minute' },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const user = await store.auth.ensureUser('bench');
  const { token } = await store.auth.createToken(user.id);
  send({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0, token });
  process.on('message', (message: { type: string }) => {
    if (message.type === 'stats')
      void (async () => {
        // Sizes are read by the parent's measuring process only once per phase; cheap enough here.
        const runs = await store.db
          .selectFrom('runs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        const events = await store.db
          .selectFrom('run_events')
          .select(sql<number>`coalesce(sum(length(json)), 0)`.as('bytes'))
          .executeTakeFirstOrThrow();
        const bytes = postgres
          ? (
              await sql<{
                bytes: string;
              }>`select pg_database_size(current_database()) as bytes`.execute(store.db)
            ).rows[0]?.bytes
          : await sqliteBytes(store.db as unknown as Kysely<unknown>);
        send(
          stats(
            counter.counts.statements,
            counter.counts.commits,
            Number(bytes),
            Number(events.bytes),
            Number(runs.n),
          ),
        );
      })();
    else
      void (async () => {
        await app.close();
        await service.close();
        await store.close();
        process.exit(0);
      })();
  });
}

async function sqliteBytes(db: Kysely<unknown>): Promise<number> {
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  const pages = await sql<{ page_count: number }>`pragma page_count`.execute(db);
  const free = await sql<{ freelist_count: number }>`pragma freelist_count`.execute(db);
  const size = await sql<{ page_size: number }>`pragma page_size`.execute(db);
  return (
    ((pages.rows[0]?.page_count ?? 0) - (free.rows[0]?.freelist_count ?? 0)) *
    (size.rows[0]?.page_size ?? 0)
  );
}

function stats(
  statements: number,
  commits: number,
  storedBytes: number,
  eventBytes: number,
  runs: number,
): TargetReply {
  const gc = (globalThis as { gc?: () => void }).gc;
  // Several passes: one leaves garbage that the next would free, which reads as growth.
  for (let i = 0; i < 4; i++) gc?.();
  const cpu = process.cpuUsage();
  return {
    type: 'stats',
    cpuMs: (cpu.user + cpu.system) / 1000,
    heapUsed: process.memoryUsage().heapUsed,
    statements,
    commits,
    storedBytes,
    eventBytes,
    runs,
  };
}

await main(JSON.parse(process.argv[2] ?? '{}') as TargetConfig);
