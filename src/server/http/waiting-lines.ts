/**
 * A line counts for at most this much against the limits. A long answer is
 * repeated whole in the closing lines of a stream (the final result; the
 * Responses API's `.done` events and `response.completed` each carry the
 * text), so one line can be larger than a whole limit, and several such
 * lines leave together: counted in full, they would cut off a client that
 * reads at full speed. Capped, the limits still hold back a slow client: its
 * many small lines add up as before, and only limit / cap large lines can
 * wait, each one a text the server holds anyway.
 */
export const LINE_WEIGHT_CAP = 1024 * 1024;

export interface WaitingLines {
  /** Queues a line. */
  add(line: string): void;
  /** The oldest line, taken off the queue. */
  next(): string | undefined;
  /** How many lines wait. */
  size(): number;
  /** What the waiting lines weigh, in bytes (see LINE_WEIGHT_CAP). */
  weight(): number;
  /** Drops every waiting line. */
  clear(): void;
}

/** The weight of a line: its size in UTF-8 bytes, capped. */
export function lineWeight(line: string): number {
  // Every UTF-16 unit is at least one byte, so a long line is capped without measuring it.
  if (line.length >= LINE_WEIGHT_CAP) return LINE_WEIGHT_CAP;
  return Math.min(Buffer.byteLength(line), LINE_WEIGHT_CAP);
}

/** Lines written for a client but not yet handed to its socket, first in first out. */
export function waitingLines(): WaitingLines {
  let lines: string[] = [];
  let weights: number[] = [];
  let head = 0;
  let total = 0;
  return {
    add(line) {
      const weight = lineWeight(line);
      lines.push(line);
      weights.push(weight);
      total += weight;
    },
    next() {
      if (head >= lines.length) return undefined;
      const line = lines[head] as string;
      total -= weights[head] as number;
      lines[head] = '';
      head += 1;
      // Taken lines are dropped from the arrays now and then, not one shift at a time.
      if (head === lines.length) {
        lines = [];
        weights = [];
        head = 0;
      } else if (head > 1024 && head * 2 > lines.length) {
        lines = lines.slice(head);
        weights = weights.slice(head);
        head = 0;
      }
      return line;
    },
    size: () => lines.length - head,
    weight: () => total,
    clear() {
      lines = [];
      weights = [];
      head = 0;
      total = 0;
    },
  };
}
