import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestPostgres } from '../src/store/testing/embedded-postgres.js';
import type { FakeModelConfig, FakeModelReply } from './server/fake-model-process.js';
import type { LoadJob, LoadResult } from './server/load-clients.js';
import type { TargetConfig, TargetReply } from './server/target-process.js';

/**
 * `--gemini`: the real `@google/genai` client in the server (and the floor)
 * calling a fake Gemini endpoint on loopback, 32 plain clients, SQLite only: the
 * setup `cadre serve` is measured with from outside. `--postgres`: only the
 * PostgreSQL lines. `--rounds=N`: how many floor/Cadre rounds (default 5 with
 * `--gemini`, else 1). `--large`: what one 10 MB answer adds to the SQLite
 * database before and after a checkpoint. `--profile`: the Cadre server process writes a CPU profile
 * (node --cpu-prof) to the current folder.
 */
const FLAGS = new Set(process.argv.slice(2));
const GEMINI = FLAGS.has('--gemini');
const CLIENTS = GEMINI ? 32 : 50;
const SECONDS = Number(process.env.CADRE_BENCH_SECONDS ?? 8);
const HEAP_RUNS = 10_000;
const BODY = JSON.stringify({ prompt: 'Hello there.', agent: 'chat' });

type Stats = Extract<TargetReply, { type: 'stats' }>;

interface Target {
  base: string;
  token: string;
  stats(): Promise<Stats>;
  stop(): Promise<void>;
}

/** A server (Cadre or the floor) in a child process with --expose-gc. */
async function startTarget(config: TargetConfig): Promise<Target> {
  const child = fork(
    new URL('./server/target-process.js', import.meta.url),
    [JSON.stringify(config)],
    {
      execArgv: [
        '--expose-gc',
        ...(FLAGS.has('--profile') && config.kind === 'cadre' ? ['--cpu-prof'] : []),
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const next = (): Promise<TargetReply> =>
    new Promise((resolve, reject) => {
      const exited = (code: number | null): void =>
        reject(new Error(`bench target exited (${code})`));
      child.once('message', (reply: TargetReply) => {
        child.off('exit', exited);
        resolve(reply);
      });
      child.once('exit', exited);
    });
  child.on('error', (error) => console.error('bench target:', error));
  const ready = await next();
  if (ready.type !== 'ready') throw new Error('bench target did not start');
  return {
    base: `http://127.0.0.1:${ready.port}`,
    token: ready.token,
    async stats() {
      const reply = next();
      child.send({ type: 'stats' });
      const stats = await reply;
      if (stats.type !== 'stats') throw new Error('bench target sent no stats');
      return stats;
    },
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.send({ type: 'stop' });
  });
}

async function load(targets: Target[], seconds: number, maxRuns?: number): Promise<LoadResult> {
  const child = fork(new URL('./server/load-clients.js', import.meta.url), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const job: LoadJob = {
    bases: targets.map((t) => t.base),
    headers: {
      ...(targets[0]?.token ? { authorization: `Bearer ${targets[0].token}` } : {}),
      'content-type': 'application/json',
    },
    body: BODY,
    clients: CLIENTS,
    streamEvery: GEMINI ? 0 : 5,
    seconds,
    ...(maxRuns ? { maxRuns } : {}),
  };
  // A child that fails (or cannot start) ends the bench with its error, not hanging on or crashing.
  const result = new Promise<LoadResult>((resolve, reject) => {
    child.once('message', resolve);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench load exited (${code})`)));
  });
  child.send(job);
  return result;
}

interface Measured {
  runsPerSecond: number;
  p50: number;
  p99: number;
  firstByte: number;
  failures: number;
  /** Per completed run, summed over the target processes. */
  statements: number;
  commits: number;
  cpuMs: number;
  storedBytes: number;
  eventBytes: number;
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Warm up briefly, then measure `seconds` of load across `targets`. */
async function measure(targets: Target[], seconds = SECONDS): Promise<Measured> {
  await load(targets, 1);
  const before = await Promise.all(targets.map((t) => t.stats()));
  const result = await load(targets, seconds);
  const after = await Promise.all(targets.map((t) => t.stats()));
  const runs = Math.max(1, result.latencies.length);
  const delta = (pick: (s: Stats) => number): number =>
    after.reduce((sum, s, i) => sum + pick(s) - pick(before[i] as Stats), 0) / runs;
  // Targets share one database: its size and events are counted once.
  const shared = (pick: (s: Stats) => number): number =>
    ((after[0] ? pick(after[0]) : 0) - (before[0] ? pick(before[0]) : 0)) / runs;
  const latencies = [...result.latencies].sort((a, b) => a - b);
  const firstBytes = [...result.firstBytes].sort((a, b) => a - b);
  return {
    runsPerSecond: result.latencies.length / result.seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    firstByte: percentile(firstBytes, 50),
    failures: result.failures,
    statements: delta((s) => s.statements),
    commits: delta((s) => s.commits),
    cpuMs: delta((s) => s.cpuMs),
    storedBytes: shared((s) => s.storedBytes),
    eventBytes: shared((s) => s.eventBytes),
  };
}

function line(label: string, m: Measured, floor?: Measured): string {
  const parts = [
    label.padEnd(22),
    `${m.runsPerSecond.toFixed(0).padStart(5)} runs/s`,
    floor
      ? `${((100 * m.runsPerSecond) / floor.runsPerSecond).toFixed(0).padStart(3)}% of floor`
      : ' '.repeat(12),
    `p50 ${m.p50.toFixed(1)} ms`,
    `p99 ${m.p99.toFixed(1)} ms`,
    `first byte ${m.firstByte.toFixed(1)} ms`,
    `CPU ${m.cpuMs.toFixed(2)} ms/run`,
  ];
  if (floor)
    parts.push(
      `${m.statements.toFixed(1)} statements, ${m.commits.toFixed(2)} commits/run`,
      `${(m.storedBytes / 1024).toFixed(1)} KB/run (events ${(m.eventBytes / 1024).toFixed(1)} KB)`,
    );
  if (m.failures) parts.push(`FAILURES ${m.failures}`);
  return parts.join('   ');
}

async function within<T>(
  config: TargetConfig,
  count: number,
  work: (targets: Target[]) => Promise<T>,
): Promise<T> {
  const targets: Target[] = [];
  try {
    for (let i = 0; i < count; i++) targets.push(await startTarget(config));
    return await work(targets);
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
  }
}

/** Rounds of floor and Cadre measured in turn (`--rounds=N`, CADRE_BENCH_ROUNDS): one figure to quote. */
const ROUNDS = Number(
  process.argv.find((a) => a.startsWith('--rounds='))?.slice('--rounds='.length) ??
    process.env.CADRE_BENCH_ROUNDS ??
    (GEMINI ? 5 : 1),
);

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/**
 * Both servers stay up; each round loads one then the other (which goes first
 * alternates), so a neighbour's burst on a shared machine hits both about
 * equally. The ratio is taken within each round, and its median and range are
 * what the bench reports.
 */
async function sqlite(dir: string, geminiBaseUrl?: string): Promise<void> {
  const model = geminiBaseUrl ? { geminiBaseUrl } : {};
  await within({ kind: 'floor', url: join(dir, 'floor.db'), ...model }, 1, (floorTargets) =>
    within({ kind: 'cadre', url: join(dir, 'cadre.db'), ...model }, 1, async (cadreTargets) => {
      const ratios: number[] = [];
      const cpuRatios: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const cadreFirst = round % 2 === 0;
        const first = await measure(cadreFirst ? cadreTargets : floorTargets);
        const second = await measure(cadreFirst ? floorTargets : cadreTargets);
        const [floor, cadre] = cadreFirst ? [second, first] : [first, second];
        ratios.push(cadre.runsPerSecond / floor.runsPerSecond);
        cpuRatios.push(floor.cpuMs / cadre.cpuMs);
        const tag = ROUNDS > 1 ? ` (round ${round})` : '';
        console.log(line(`SQLite floor${tag}`, floor));
        console.log(line(`SQLite Cadre${tag}`, cadre, floor));
      }
      if (ROUNDS > 1) {
        const percent = (r: number): string => `${(100 * r).toFixed(0)}%`;
        const summary = (values: number[]): string =>
          `median ${percent(median(values))} (range ${percent(Math.min(...values))}–${percent(Math.max(...values))}; ` +
          `rounds ${values.map(percent).join(', ')})`;
        // On a machine others load, runs/s of both sinks toward what the scheduler gives each
        // process; CPU per run (floor's over Cadre's) is what the throughput would be were the
        // server alone on its core.
        console.log(
          `\nCadre / floor over ${ROUNDS} rounds, runs/s: ${summary(ratios)}\n` +
            `Floor's CPU per run / Cadre's:          ${summary(cpuRatios)}`,
        );
      }
    }),
  );
}

const ANSWER_CHARS = 10_000_000;

/** What one 10 MB answer through `cadre serve` (real Gemini client, SQLite) adds to the database. */
async function largeAnswer(dir: string): Promise<void> {
  const gemini = await fakeGemini(ANSWER_CHARS, 1);
  const file = join(dir, 'large.db');
  const onDisk = async (): Promise<number> =>
    (await size(file)) + (await size(`${file}-wal`)) + (await size(`${file}-journal`));
  try {
    await within(
      { kind: 'cadre', url: file, geminiBaseUrl: gemini.baseUrl },
      1,
      async (targets) => {
        const target = targets[0] as Target;
        const before = await onDisk();
        const started = performance.now();
        const ask = async (): Promise<string> => {
          const response = await fetch(`${target.base}/api/agent/run`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${target.token}`,
              'content-type': 'application/json',
            },
            body: BODY,
          });
          return ((await response.json()) as { summary?: string }).summary ?? '';
        };
        const answer = await ask();
        const seconds = (performance.now() - started) / 1000;
        const grown = (await onDisk()) - before;
        // The next write finds the WAL checkpointed and starts it over (cut to journal_size_limit).
        await ask();
        const next = (await onDisk()) - before;
        await target.stats(); // checkpoints the WAL
        const settled = (await onDisk()) - before;
        const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
        const times = (bytes: number): string => `${(bytes / ANSWER_CHARS).toFixed(2)}×`;
        console.log(
          `A ${mb(ANSWER_CHARS)} answer (${answer.length === ANSWER_CHARS ? 'returned whole' : `RETURNED ${answer.length} characters`}, ${seconds.toFixed(1)} s) grew the database and its WAL by\n` +
            `${mb(grown)} (${times(grown)} the answer; goal < 2×) as it ended, ${mb(next)} (${times(next)}) after the next run, ${mb(settled)} (${times(settled)}) after a checkpoint`,
        );
      },
    );
  } finally {
    await gemini.stop();
  }
}

const size = (path: string): Promise<number> =>
  stat(path).then(
    (s) => s.size,
    () => 0,
  );

/** A fake Gemini in its own process; answers `answerChars` long (0: a greeting), the first `longAnswers`. */
async function fakeGemini(
  answerChars: number,
  longAnswers?: number,
): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const config: FakeModelConfig = { answerChars, ...(longAnswers ? { longAnswers } : {}) };
  const child = fork(new URL('./server/fake-model-process.js', import.meta.url), [
    JSON.stringify(config),
  ]);
  const ready = await new Promise<FakeModelReply>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`fake Gemini exited (${code})`)));
  });
  return { baseUrl: ready.baseUrl, stop: () => stopChild(child) };
}

async function heap(dir: string): Promise<void> {
  await within({ kind: 'cadre', url: join(dir, 'heap.db') }, 1, async (targets) => {
    const target = targets[0] as Target;
    await load(targets, 60, 2_000);
    const warm = await target.stats();
    await load(targets, 120, HEAP_RUNS);
    const middle = await target.stats();
    await load(targets, 120, HEAP_RUNS);
    const done = await target.stats();
    const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;
    const perRun = (from: Stats, to: Stats): string =>
      `${((to.heapUsed - from.heapUsed) / HEAP_RUNS).toFixed(0)} bytes/run`;
    // Two windows: growth that is real repeats in the second; noise from GC timing does not.
    console.log(
      `\nHeap after GC (SQLite): ${mb(warm.heapUsed)} after 2,000 runs, ${mb(middle.heapUsed)} after ${HEAP_RUNS.toLocaleString('en')} more (${perRun(warm, middle)}), ${mb(done.heapUsed)} after ${HEAP_RUNS.toLocaleString('en')} more (${perRun(middle, done)})`,
    );
  });
}

async function postgres(): Promise<void> {
  const server = new TestPostgres();
  await server.start();
  try {
    const floor = await within(
      { kind: 'floor', url: await server.createDatabase('cadre_bench_floor') },
      1,
      (t) => measure(t),
    );
    console.log(`\n${line('PostgreSQL floor', floor)}`);
    for (const processes of [1, 2, 3]) {
      const url = await server.createDatabase(`cadre_bench_${processes}`);
      const cadre = await within({ kind: 'cadre', url }, processes, (t) => measure(t));
      console.log(line(`PostgreSQL Cadre ×${processes}`, cadre, floor));
    }
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'cadre-bench-db-'));
  if (GEMINI) {
    console.log(
      `Cadre server benchmark, Gemini: ${CLIENTS} concurrent clients (in their own process) for ${SECONDS} s per line; a one-turn\n` +
        `chat agent whose model is the real @google/genai client calling a fake Gemini endpoint on loopback (its own process);\n` +
        `the floor is a bare Fastify route making the same call and one transaction of 3 inserts (node ${process.version}).\n`,
    );
    const gemini = await fakeGemini(0);
    try {
      await sqlite(dir, gemini.baseUrl);
    } finally {
      await gemini.stop();
    }
    return;
  }
  if (FLAGS.has('--large')) {
    await largeAnswer(dir);
    return;
  }
  if (FLAGS.has('--postgres')) {
    await postgres();
    return;
  }
  console.log(
    `Cadre server benchmark: ${CLIENTS} concurrent clients (one in five streaming, in their own process) for ${SECONDS} s per line;\n` +
      `a scripted one-turn chat agent (no network) behind POST /api/agent/run; the floor is a bare Fastify route making the\n` +
      `same model call and one transaction of 3 inserts. Statements and commits are counted at the driver (node ${process.version}).\n`,
  );
  await sqlite(dir);
  await heap(dir);
  await postgres();
}

await main();
