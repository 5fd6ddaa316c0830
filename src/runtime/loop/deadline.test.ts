import { expect, test } from 'vitest';
import { ManualClock } from '../../util/testing/manual-clock.js';
import { Deadline, DeadlineExceeded } from './deadline.js';

const aborted = (signal: AbortSignal): Promise<unknown> =>
  new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason)));

test('on the real clock, a deadline aborts its signal when the budget runs out', async () => {
  const deadline = new Deadline(5);
  expect(deadline.expired).toBe(false);
  expect(await aborted(deadline.signal)).toBeInstanceOf(DeadlineExceeded);
  expect(deadline.expired).toBe(true);
  expect(deadline.remaining()).toBe(0);
});

test('on the real clock, a paused deadline does not run out, and a disposed one never fires', async () => {
  const paused = new Deadline(5);
  const disposed = new Deadline(5);
  paused.pause();
  disposed.dispose();
  const later = new Deadline(20);
  await aborted(later.signal);
  expect(paused.expired).toBe(false);
  expect(paused.remaining()).toBeGreaterThan(0);
  expect(disposed.expired).toBe(false);
  paused.resume();
  expect(await aborted(paused.signal)).toBeInstanceOf(DeadlineExceeded);
});

test('on a manual clock, only running time counts against the budget', async () => {
  const clock = new ManualClock();
  const deadline = new Deadline(100, clock);
  clock.advance(60);
  deadline.pause();
  clock.advance(1_000);
  expect(deadline.expired).toBe(false);
  expect(deadline.remaining()).toBe(40);
  deadline.resume();
  clock.advance(40);
  expect(await aborted(deadline.signal)).toBeInstanceOf(DeadlineExceeded);
});
