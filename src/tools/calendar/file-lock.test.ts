import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from './file-lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const live = (): AbortSignal => new AbortController().signal;

/** A lock left by a writer that crashed two minutes ago. */
async function staleLock(file: string): Promise<void> {
  await mkdir(`${file}.lock`);
  const old = new Date(Date.now() - 120_000);
  await utimes(`${file}.lock`, old, old);
}

/** Runs `writers` at once on `file`; the most that were inside the lock together. */
async function mostAtOnce(file: string, writers: number): Promise<number> {
  let inside = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: writers }, () =>
      withFileLock(file, live(), async () => {
        most = Math.max(most, ++inside);
        // Real time on purpose: the writers contend through the file system, and holding the
        // lock a moment is what gives a second one the chance to get in wrongly.
        await sleep(5);
        inside--;
      }),
    ),
  );
  return most;
}

describe('withFileLock', () => {
  it('lets concurrent writers in one at a time, even when they all find a stale lock', async () => {
    // Each round races the writers on breaking the same stale lock: a break that
    // removed a lock a winner had just taken would let two writers in.
    for (let round = 0; round < 20; round++) {
      const file = join(dir, `calendar-${round}.ics`);
      await staleLock(file);
      expect(await mostAtOnce(file, 6)).toBe(1);
    }
  });

  it('breaks a stale lock file an earlier version left (a file, not a folder)', async () => {
    const file = join(dir, 'calendar.ics');
    await writeFile(`${file}.lock`, '');
    const old = new Date(Date.now() - 120_000);
    await utimes(`${file}.lock`, old, old);
    expect(await withFileLock(file, live(), () => Promise.resolve('written'))).toBe('written');
  });

  it('a breaker a crashed writer left behind neither blocks a break nor guards a later lock', async () => {
    const file = join(dir, 'calendar.ics');
    await staleLock(file);
    const lockTime = (await stat(`${file}.lock`)).mtimeMs;
    // Crashed mid-break, long ago: once on this very lock, once on an earlier one.
    const old = new Date(Date.now() - 120_000);
    for (const breaker of [`${file}.lock.break-${lockTime}`, `${file}.lock.break-1`]) {
      await mkdir(breaker);
      await utimes(breaker, old, old);
    }
    expect(await mostAtOnce(file, 6)).toBe(1);
    await expect(stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('removes the lock when done, also when the work throws', async () => {
    const file = join(dir, 'calendar.ics');
    await expect(
      withFileLock(file, live(), () => Promise.reject(new Error('disk full'))),
    ).rejects.toThrow('disk full');
    await expect(stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('gives up on a live lock after the timeout, and stops waiting when cancelled', async () => {
    const file = join(dir, 'calendar.ics');
    let releaseHolder = (): void => undefined;
    let taken = (): void => undefined;
    const held = new Promise<void>((resolve) => (taken = resolve));
    // The holder's work starts once it has the lock: the test waits for that, not polls the file.
    const holding = withFileLock(file, live(), () => {
      taken();
      return new Promise<void>((resolve) => (releaseHolder = resolve));
    });
    await held;
    await expect(stat(`${file}.lock`)).resolves.toBeDefined();
    // A real 100 ms: giving up after its timeout is what is tested, and it costs no more.
    await expect(
      withFileLock(file, live(), () => Promise.resolve(), { timeoutMs: 100 }),
    ).rejects.toThrow('locked by another writer');
    const cancel = new AbortController();
    const waiting = withFileLock(file, cancel.signal, () => Promise.resolve());
    cancel.abort();
    await expect(waiting).rejects.toThrow('cancelled');
    releaseHolder();
    await holding;
  });
});
