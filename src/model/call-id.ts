import { randomBytes } from 'node:crypto';

/**
 * Makes ids for function calls the provider sent without one. The random
 * tag keeps ids unique across turns of a run (approvals bind to call ids);
 * the counter keeps them readable: `call_3fa9c2d1_1`, `call_3fa9c2d1_2`.
 */
export function createCallIdSource(): () => string {
  const tag = randomBytes(4).toString('hex');
  let count = 0;
  return () => `call_${tag}_${++count}`;
}
