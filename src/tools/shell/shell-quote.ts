import { createRequire } from 'node:module';
import type * as ShellQuote from 'shell-quote';

const load = createRequire(import.meta.url);

/**
 * shell-quote's word splitter, loaded on first use (synchronously: pattern
 * checks are sync) so importing the tools costs no start-up time.
 */
export const splitWords: typeof ShellQuote.parse = (...args) =>
  (load('shell-quote') as typeof ShellQuote).parse(...args);
