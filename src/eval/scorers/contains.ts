import { expectedText, normaliseText } from '../answer-text.js';
import type { Scorer } from '../types.js';
import { quote, scored } from './score-result.js';

/**
 * The expected text appears in the answer, ignoring case and spacing. A
 * list of expected texts scores the share found; all must be found to pass.
 */
export function containsScorer(): Scorer {
  return {
    name: 'contains',
    needs: 'expected',
    score: ({ row, answer }) => {
      const wanted = (Array.isArray(row.expected) ? row.expected : [row.expected]).map(
        expectedText,
      );
      const haystack = normaliseText(answer);
      const missing = wanted.filter((w) => !haystack.includes(normaliseText(w)));
      const score = wanted.length === 0 ? 1 : (wanted.length - missing.length) / wanted.length;
      return Promise.resolve(
        scored(
          score,
          missing.length > 0 ? `not found: ${missing.map((m) => quote(m)).join(', ')}` : undefined,
        ),
      );
    },
  };
}
