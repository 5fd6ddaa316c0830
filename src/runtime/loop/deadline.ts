import { realClock, type Clock } from '../../util/clock.js';

/**
 * A time budget that can be paused (while a person decides on an approval)
 * and aborts its signal when it runs out.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private remainingMs: number;
  private startedAt: number | undefined;
  /** The pending expiry: a bare timeout on the real clock, else a sleep on the run's clock. */
  private timer: ReturnType<typeof setTimeout> | AbortController | undefined;

  constructor(
    budgetMs: number,
    /** The run's clock: a test steps a ManualClock through the budget. */
    readonly clock: Clock = realClock,
  ) {
    this.signal = this.controller.signal;
    this.remainingMs = budgetMs;
    this.resume();
  }

  /** An execution's deadline: its own budget, capped by what its caller has left, less the time it already used. */
  static forExecution(
    ownBudgetMs: number,
    callerBudgetMs: number | undefined,
    usedMs: number,
    clock: Clock,
  ): Deadline {
    return new Deadline(
      Math.max(0, Math.min(ownBudgetMs, callerBudgetMs ?? Infinity) - usedMs),
      clock,
    );
  }

  get expired(): boolean {
    return this.signal.aborted;
  }

  /** Milliseconds left, counting only running time. */
  remaining(): number {
    const running = this.startedAt === undefined ? 0 : this.clock.now() - this.startedAt;
    return Math.max(0, this.remainingMs - running);
  }

  pause(): void {
    if (this.startedAt === undefined || this.expired) return;
    this.remainingMs = this.remaining();
    this.startedAt = undefined;
    this.stopTimer();
  }

  resume(): void {
    if (this.startedAt !== undefined || this.expired) return;
    this.startedAt = this.clock.now();
    if (!Number.isFinite(this.remainingMs)) return;
    if (this.clock === realClock) {
      // Every running run holds one: a bare timeout weighs less than a sleep's
      // promise, listener and controller (a pending budget must not keep a
      // finished CLI process alive, hence unref).
      this.timer = setTimeout(
        () => this.controller.abort(new DeadlineExceeded()),
        this.remainingMs,
      );
      this.timer.unref();
      return;
    }
    const timer = new AbortController();
    this.timer = timer;
    // A pending budget must not keep a finished CLI process alive (background).
    this.clock.sleep(this.remainingMs, timer.signal, { background: true }).then(
      () => this.controller.abort(new DeadlineExceeded()),
      () => undefined,
    );
  }

  dispose(): void {
    this.stopTimer();
    this.startedAt = undefined;
  }

  private stopTimer(): void {
    const timer = this.timer;
    this.timer = undefined;
    if (timer instanceof AbortController) timer.abort();
    else if (timer !== undefined) clearTimeout(timer);
  }
}

export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
  constructor() {
    super('The time budget ran out.');
  }
}
