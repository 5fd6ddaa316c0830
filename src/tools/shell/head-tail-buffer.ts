import { formatCount } from '../builtin/output-cap.js';

/**
 * Keeps the first and the last `keep` characters of a stream and counts the
 * rest, so a command printing gigabytes costs at most `2 * keep` characters.
 */
export class HeadTailBuffer {
  private head = '';
  private tail = '';
  private total = 0;

  constructor(private readonly keep: number) {}

  push(text: string): void {
    this.total += text.length;
    let rest = text;
    if (this.head.length < this.keep) {
      const room = this.keep - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    // slice(-0) would keep everything.
    if (rest !== '' && this.keep > 0) this.tail = (this.tail + rest).slice(-this.keep);
  }

  /** Characters received so far. */
  get length(): number {
    return this.total;
  }

  /** Characters held in memory, at most `2 * keep`. */
  get held(): number {
    return this.head.length + this.tail.length;
  }

  /**
   * The output within `budget` characters: whole when it fits, otherwise its
   * start and end around a note of how much was cut. `budget` must not exceed
   * `2 * keep`.
   */
  render(budget: number): { text: string; cut: number } {
    const complete = this.head.length + this.tail.length === this.total;
    if (complete && this.total <= budget) return { text: this.head + this.tail, cut: 0 };
    const headShown = Math.ceil(budget / 2);
    const tailShown = budget - headShown;
    const start = this.head.slice(0, headShown);
    // Until the head is full the tail is empty, so read the end off whatever is held.
    const held = complete ? this.head + this.tail : this.tail;
    const end = tailShown === 0 ? '' : held.slice(-tailShown);
    const cut = this.total - start.length - end.length;
    const note = `[… ${formatCount(cut)} characters cut …]`;
    return { text: `${start}\n${note}\n${end}`, cut };
  }
}

/**
 * Shares `budget` between streams: each gets what it needs up to an equal
 * share, and what one leaves unused goes to the others.
 */
export function shareBudget(lengths: readonly number[], budget: number): number[] {
  const shares = lengths.map(() => 0);
  let left = budget;
  let open = lengths.map((_, i) => i);
  while (open.length > 0 && left > 0) {
    const each = Math.floor(left / open.length);
    if (each === 0) break;
    const stillOpen: number[] = [];
    for (const i of open) {
      const want = (lengths[i] ?? 0) - (shares[i] ?? 0);
      const give = Math.min(want, each);
      shares[i] = (shares[i] ?? 0) + give;
      left -= give;
      if (want > give) stillOpen.push(i);
    }
    open = stillOpen;
  }
  return shares;
}
