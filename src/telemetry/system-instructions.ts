/**
 * The system prompt of a model call, for `gen_ai.system_instructions` on its
 * chat span. It rides on the `turn_started` event's data as a property that
 * is not enumerable: listeners in the process (telemetry with content
 * capture) read it, while everything that serialises events (the store,
 * NDJSON streams, trajectories, worker messages) leaves it out, so a
 * definition's prompt never reaches a run's event log or its users.
 */
const KEY = 'systemInstruction';

/** `data` with the system prompt attached out of sight (none: `data` as it is). */
export function withSystemInstruction(
  data: Record<string, unknown>,
  systemInstruction: string | undefined,
): Record<string, unknown> {
  if (systemInstruction)
    Object.defineProperty(data, KEY, { value: systemInstruction, enumerable: false });
  return data;
}

/** The attribute's value (the conventions' parts as JSON), when the event carries a prompt. */
export function systemInstructions(data: Record<string, unknown>): string | undefined {
  const text = data[KEY];
  return typeof text === 'string' && text
    ? JSON.stringify([{ type: 'text', content: text }])
    : undefined;
}
