import { expectedText } from '../answer-text.js';
import type { Scorer } from '../types.js';
import { quote, scored } from './score-result.js';

/** `expected` is a pattern, plain (`\d+ files`) or with flags (`/error/i`); the answer must match it. */
export function regexScorer(): Scorer {
  return {
    name: 'regex',
    needs: 'expected',
    score: ({ row, answer }) => {
      const source = expectedText(row.expected);
      let pattern: RegExp;
      try {
        pattern = toRegExp(source);
      } catch (error) {
        return Promise.resolve({
          status: 'error',
          error: `invalid pattern ${quote(source)}: ${(error as Error).message}`,
        });
      }
      const ok = pattern.test(answer);
      return Promise.resolve(
        scored(ok ? 1 : 0, ok ? undefined : `${String(pattern)} does not match ${quote(answer)}`),
      );
    },
  };
}

function toRegExp(source: string): RegExp {
  const literal = /^\/(.*)\/([dgimsuvy]*)$/s.exec(source);
  return literal ? new RegExp(literal[1] ?? '', literal[2]) : new RegExp(source);
}
