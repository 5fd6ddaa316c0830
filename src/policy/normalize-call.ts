import { normalizeCalendarArgs } from '../tools/calendar/calendar-args.js';
import { normalizeMailArgs } from '../tools/mail/mail-args.js';
import type { NormalizedCall } from './types.js';

export type CallNormalizer = (args: unknown) => NormalizedCall;

/** Tools whose arguments reach people: their normalisers also name the recipients. */
export const TOOL_NORMALIZERS: Readonly<Record<string, CallNormalizer>> = Object.freeze({
  gmail_send: normalizeMailArgs,
  calendar_event_create: normalizeCalendarArgs,
});

/**
 * The first step for every call, before policy and approval: a tool with a
 * normaliser gets its arguments checked and canonicalised; any other tool's
 * arguments pass as they are (schema validation already ran) with no recipients.
 */
export function normalizeCall(
  tool: string,
  args: unknown,
  normalizers: Readonly<Record<string, CallNormalizer>> = TOOL_NORMALIZERS,
): NormalizedCall {
  const normalizer = Object.hasOwn(normalizers, tool) ? normalizers[tool] : undefined;
  if (normalizer) return normalizer(args);
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { ok: false, reason: 'the arguments must be an object' };
  }
  return { ok: true, args: args as Record<string, unknown> };
}
