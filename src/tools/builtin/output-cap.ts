/** Bounds on what one tool call returns to the model. */
export interface OutputLimits {
  /** Most lines / entries / matches kept. */
  maxItems: number;
  /** Most characters kept across all items (newlines included). */
  maxChars: number;
}

/**
 * `1532` → `1,532`, the form used in notes and previews (as `toLocaleString('en-US')`,
 * up to 3 decimals). Written by hand: the first `toLocaleString` call loads ICU data,
 * about 9 ms, and tool descriptions call this while the package entry is imported.
 */
export function formatCount(n: number): string {
  if (!Number.isFinite(n) || Math.abs(n) >= 1e15) return n.toLocaleString('en-US');
  const [whole = '', fraction] = (Math.round(Math.abs(n) * 1000) / 1000).toString().split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  return fraction === undefined ? `${sign}${grouped}` : `${sign}${grouped}.${fraction}`;
}

/** Shortens one overlong line (minified code, data) so a single line cannot eat the budget. */
export function clipLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  return `${line.slice(0, maxChars)}… [${formatCount(line.length - maxChars)} more characters]`;
}

/** `[truncated: showing 200 of 1,532 lines; narrow the query]` */
export function truncationNote(shown: number, total: number, unit: string, hint: string): string {
  return `[truncated: showing ${formatCount(shown)} of ${formatCount(total)} ${unit}; ${hint}]`;
}

/**
 * Collects output lines within limits while counting everything offered, so
 * the note can say how much was left out without holding it in memory. Kept
 * lines are always a prefix: once one is dropped, all later ones are.
 */
export class CappedOutput {
  private readonly kept: string[] = [];
  private chars = 0;
  private offered = 0;

  constructor(
    private readonly limits: OutputLimits,
    private readonly unit: string,
  ) {}

  add(line: string): void {
    this.offered += 1;
    if (this.kept.length < this.offered - 1) return;
    const cost = line.length + 1;
    if (this.kept.length >= this.limits.maxItems || this.chars + cost > this.limits.maxChars)
      return;
    this.kept.push(line);
    this.chars += cost;
  }

  get shown(): number {
    return this.kept.length;
  }

  get total(): number {
    return this.offered;
  }

  get truncated(): boolean {
    return this.kept.length < this.offered;
  }

  /** The kept lines, plus the truncation note (with `hint`) when anything was dropped. */
  render(hint: string): string {
    const body = this.kept.join('\n');
    if (!this.truncated) return body;
    const note = truncationNote(this.shown, this.total, this.unit, hint);
    return body === '' ? note : `${body}\n${note}`;
  }
}
