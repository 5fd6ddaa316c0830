import { errorAt, type IssuePath, type PendingIssue } from './issues.js';

export interface Picked<T> {
  value: T;
  /** The spelling found, for issue paths. */
  key: string;
}

/**
 * One field that may be written in several spellings (`max_turns` /
 * `maxTurns`). Two spellings at once is an error: which one wins would be a guess.
 */
export function pickSpelling<T>(
  object: Readonly<Record<string, unknown>> | undefined,
  keys: readonly string[],
  at: IssuePath,
  issues: PendingIssue[],
): Picked<T> | undefined {
  if (!object) return undefined;
  const present = keys.filter((key) => object[key] !== undefined);
  const [first, second] = present;
  if (first === undefined) return undefined;
  if (second !== undefined) {
    issues.push(
      errorAt([...at, second], `"${first}" and "${second}" are the same field; keep one`, 'key'),
    );
  }
  return { value: object[first] as T, key: first };
}
