/**
 * Tools whose arguments reach people (the gate normalises them and names the
 * recipients): kept apart from the normalisers so a plain read can be told
 * from them without loading the gate.
 */
export const NORMALIZED_TOOLS: ReadonlySet<string> = new Set([
  'gmail_send',
  'calendar_event_create',
]);
