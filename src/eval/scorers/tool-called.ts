import type { ScoreLabel, Scorer } from '../types.js';
import { scored } from './score-result.js';

const SCORES: Record<ScoreLabel, number> = { pass: 1, partial: 0.5, fail: 0 };

/**
 * The routing test: pass when the model called exactly the expected
 * tool(s), partial when it called them among others (or some of several),
 * fail when it called none of them.
 */
export function toolCalledScorer(): Scorer {
  return {
    name: 'tool_called',
    needs: 'expected_tool',
    score: ({ row, calledTools }) => {
      const expected = [row.expected_tool ?? []].flat();
      const label = routing(expected, calledTools);
      const detail =
        label === 'pass'
          ? undefined
          : `expected ${expected.join(', ') || '(no tool)'}, called ${calledTools.join(', ') || '(no tool)'}`;
      return Promise.resolve(scored(SCORES[label], detail, label));
    },
  };
}

export function routing(expected: readonly string[], called: readonly string[]): ScoreLabel {
  const same = expected.length === called.length && expected.every((t) => called.includes(t));
  if (same) return 'pass';
  return expected.some((t) => called.includes(t)) ? 'partial' : 'fail';
}
