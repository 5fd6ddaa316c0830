import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html-to-markdown.js';

const BASE = 'https://example.com/';

/**
 * Milliseconds of the fastest of a few conversions: the least disturbed by
 * garbage collection and other work on the machine.
 */
function fastest(html: string, runs = 2): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    htmlToMarkdown(html, BASE);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** Milliseconds of one conversion, and what it gave. */
function timed(html: string): { ms: number; page: ReturnType<typeof htmlToMarkdown> } {
  const started = performance.now();
  const page = htmlToMarkdown(html, BASE);
  return { ms: performance.now() - started, page };
}

/**
 * A hostile page must cost at most `factor` times its baseline, a page of the
 * same size and shape without the hazard, measured here on this machine: a
 * slow or busy machine slows both alike. The slack absorbs timer noise on
 * baselines of a few milliseconds.
 */
function expectWithin(hostileMs: number, baseline: string, factor: number): void {
  const slackMs = 50;
  const base = fastest(baseline);
  expect(
    hostileMs,
    `hostile ${hostileMs.toFixed(0)} ms, baseline ${base.toFixed(0)} ms`,
  ).toBeLessThanOrEqual(base * factor + slackMs);
}

describe('hostile HTML', () => {
  it('reads the title of a page of unclosed <title> tags in the time of a page without them', () => {
    // A lazy RegExp retried from every tag took about 20 s on this page, some hundred times the
    // same page whose first <title> is closed (found at once); the scan with indexOf costs the same.
    const unclosed = '<title>'.repeat(150_000);
    const first = timed(unclosed);
    expect(first.page.title).toBeUndefined();
    expect(htmlToMarkdown('<TITLE >A &amp; B</title>', BASE).title).toBe('A & B');
    const closedFirst = `<title>T</title>${'<title>'.repeat(149_998)}`;
    expectWithin(Math.min(first.ms, fastest(unclosed, 1)), closedFirst, 5);
  });

  it('a page nested too deep for the converter still gives its text, in bounded time', () => {
    const deep = `<title>Deep</title>${'<div>'.repeat(6_000)}the words${'</div>'.repeat(6_000)}`;
    // Timed once: it is the slow one, and a single run only errs on the slow side.
    const { ms, page } = timed(deep);
    expect(page.title).toBe('Deep');
    expect(page.markdown).toContain('the words');
    // The converter's recursion overflows and the text is read without it: about ten times the
    // same elements side by side, never the hundreds a walk retried per level would take.
    const flat = `<title>Deep</title>${'<div></div>'.repeat(6_000)}the words`;
    expectWithin(ms, flat, 50);
  });
});
