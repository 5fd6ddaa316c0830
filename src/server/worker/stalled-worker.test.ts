import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
} from '../../model/types.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import { afterWrites, heardWrites } from '../../testing/heard-writes.js';
import { ManualClock } from '../../util/testing/manual-clock.js';
import { createRunService } from '../core/create-run-service.js';
import type { RunService } from '../run-service-types.js';

/**
 * A model whose answer waits until the test lets it go: the worker's step
 * stands still, as in a process paused by the machine. `reached` resolves
 * once the call is waiting, `done` once it has answered.
 */
class StalledModel implements ModelClient {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'stalled';
  calls = 0;
  /** The call woke with its answer (it was not stopped while it stood still). */
  answered = false;
  readonly reached: Promise<void>;
  readonly done: Promise<void>;
  private arrived: () => void = () => undefined;
  private release: () => void = () => undefined;
  private finished: () => void = () => undefined;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));

  constructor(private readonly answer: string) {
    this.reached = new Promise((resolve) => (this.arrived = resolve));
    this.done = new Promise((resolve) => (this.finished = resolve));
  }

  go(): void {
    this.release();
  }

  async *generate(_request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    this.calls++;
    this.arrived();
    try {
      await new Promise<void>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        void this.released.then(resolve);
      });
      this.answered = true;
      yield { type: 'text', text: this.answer };
    } finally {
      this.finished();
    }
  }
}

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-stall-'));
  store = await openStore({ url: join(dir, 'cadre.db'), auditKey: randomBytes(32) });
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a worker that stalls past its lease (two workers on one real SQLite store)', () => {
  it('records nothing more once another worker took the run over', async () => {
    const stalled = new StalledModel('stale answer from the stalled worker');
    const takeover = new StalledModel('answer from the worker that took over');
    let a: RunService | undefined;
    let b: RunService | undefined;
    // B's queue poll moves only when the test says: it finds the run exactly when the lease is gone.
    const clockB = new ManualClock();
    const pollMs = 1_000;
    const writesOfA = heardWrites(store);
    try {
      a = await createRunService({
        store: writesOfA.store,
        cwd: dir,
        env: { HOME: dir },
        modelClient: stalled,
        // Stored as it starts; a lease whose heartbeat (a third of it) never comes in this test.
        worker: { storeAfterMs: 0, leaseMs: 60_000, eventFlushMs: 10 },
      });
      b = await createRunService({
        store,
        cwd: dir,
        env: { HOME: dir },
        modelClient: takeover,
        clock: clockB,
        worker: { pollMs },
      });
      const user = await store.auth.ensureUser('ann');
      let runId = '';
      const first = a.run(
        { userId: user.id, prompt: 'Say something.' },
        { onStarted: (ids) => (runId = ids.runId) },
      );

      // A's step stands still in its model call, its run stored and leased to it.
      await stalled.reached;
      const owned = await afterWrites(writesOfA.next, async () => {
        const run = await store.runs.get(runId, user.id);
        return run?.owner && run.eventSeq > 0 ? run : undefined;
      });
      // Its lease runs out, as it would while the process stood still (without waiting for it).
      await store.queue.expireLeases([{ runId, owner: owned.owner! }]);
      // B idles on two sleeps, its heartbeat and its queue poll; the poll comes round first.
      await clockB.waiting(2);
      clockB.advance(pollMs);

      // B leases the run and is in the middle of its own step when A wakes up.
      await takeover.reached;
      const leased = await store.runs.get(runId, user.id);
      expect(leased?.owner).toBeDefined();
      expect(leased?.owner).not.toBe(owned.owner);
      stalled.go();
      await stalled.done;
      expect(stalled.answered).toBe(true);
      // Whatever A tried to write is refused: B still holds the run, and its log is B's.
      const during = await store.runs.get(runId, user.id);
      expect(during?.owner).toBe(leased?.owner);
      expect(during?.status).not.toBe('completed');
      expect(JSON.stringify(await store.events.read(runId))).not.toContain('stale answer');

      takeover.go();
      const seenByA = await first;
      expect(seenByA.status).toBe('completed');
      expect(stalled.calls).toBe(1);
      const after = await store.runs.get(runId, user.id);
      expect(after?.status).toBe('completed');
      expect(after?.owner).toBeUndefined();
      const events = await store.events.read(runId);
      const text = JSON.stringify(events);
      expect(text).not.toContain('stale answer');
      expect(text).toContain('answer from the worker that took over');
      // One log, numbered without gaps or repeats: A's events before the stall, then B's.
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events.length).toBeGreaterThan(owned.eventSeq);
      expect(JSON.stringify((await after?.state?.read()) ?? null)).not.toContain('stale answer');
    } finally {
      stalled.go();
      takeover.go();
      await a?.close();
      await b?.close();
    }
  });
});
