import type { ZodLike } from './types.js';

/** Structural check, so code that only needs to recognise a Zod schema does not load zod. */
export const isZodLike = (value: unknown): value is ZodLike =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { safeParse?: unknown }).safeParse === 'function';
