import type { EvalProgress } from './types.js';

const WIDTH = 24;

/**
 * One self-rewriting line on a terminal: `[██████░░░░] 6/10 ✓5 ✗1 3.2s`.
 * Call `end()` before printing anything else.
 */
export function createProgressBar(write: (text: string) => void): {
  update(progress: EvalProgress): void;
  end(): void;
} {
  const started = performance.now();
  let drawn = false;
  return {
    update(p) {
      const filled = p.total === 0 ? WIDTH : Math.round((p.done / p.total) * WIDTH);
      const bar = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
      const secs = ((performance.now() - started) / 1000).toFixed(1);
      write(`\r\x1b[K[${bar}] ${p.done}/${p.total} ✓${p.ok} ✗${p.failed} ${secs}s`);
      drawn = true;
    },
    end() {
      if (drawn) write('\n');
      drawn = false;
    },
  };
}
