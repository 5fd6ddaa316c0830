/**
 * A time budget that can be paused (while a person decides on an approval)
 * and aborts its signal when it runs out.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private remainingMs: number;
  private startedAt: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(budgetMs: number) {
    this.signal = this.controller.signal;
    this.remainingMs = budgetMs;
    this.resume();
  }

  get expired(): boolean {
    return this.signal.aborted;
  }

  /** Milliseconds left, counting only running time. */
  remaining(): number {
    const running = this.startedAt === undefined ? 0 : performance.now() - this.startedAt;
    return Math.max(0, this.remainingMs - running);
  }

  pause(): void {
    if (this.startedAt === undefined || this.expired) return;
    this.remainingMs = this.remaining();
    this.startedAt = undefined;
    clearTimeout(this.timer);
  }

  resume(): void {
    if (this.startedAt !== undefined || this.expired) return;
    this.startedAt = performance.now();
    if (!Number.isFinite(this.remainingMs)) return;
    this.timer = setTimeout(() => this.controller.abort(new DeadlineExceeded()), this.remainingMs);
    // A pending budget must not keep a finished CLI process alive.
    this.timer.unref?.();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.startedAt = undefined;
  }
}

export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
  constructor() {
    super('The time budget ran out.');
  }
}
