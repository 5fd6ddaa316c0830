import { canonicalJson } from '../../util/canonical-json.js';
import type { Scorer } from '../types.js';
import { quote, scored } from './score-result.js';

/**
 * Text expected: the answer, trimmed, must be exactly it. Anything else
 * (a recorded structured output): the output must be equal as JSON.
 */
export function exactScorer(): Scorer {
  return {
    name: 'exact',
    needs: 'expected',
    score: ({ row, result, answer }) => {
      if (typeof row.expected === 'string') {
        const ok = answer.trim() === row.expected.trim();
        return Promise.resolve(
          scored(
            ok ? 1 : 0,
            ok ? undefined : `expected ${quote(row.expected)}, got ${quote(answer)}`,
          ),
        );
      }
      const ok = canonicalJson(result.output) === canonicalJson(row.expected);
      return Promise.resolve(
        scored(
          ok ? 1 : 0,
          ok
            ? undefined
            : `output differs from the expected JSON: got ${quote(canonicalJson(result.output))}`,
        ),
      );
    },
  };
}
