import { formatCount } from '../../tools/builtin/output-cap.js';

/**
 * Most characters of one tool result the model is given: text as it is,
 * anything else as its JSON. Tools with tighter limits of their own keep them;
 * this bounds every tool, MCP servers and code tools included.
 */
export const MAX_RESULT_CHARS = 50_000;

/** `[… 7,990,000 characters cut …]`: what the model sees where a result was shortened. */
export function cutMarker(cut: number): string {
  return `[… ${formatCount(cut)} characters cut …]`;
}

/** The text, or its first part and a marker saying how much was cut; never longer than `max`. */
export function capText(text: string, max = MAX_RESULT_CHARS): string {
  if (text.length <= max) return text;
  // The marker's own length depends on the count, so leave room for the longest one.
  const room = max - cutMarker(text.length).length - 1;
  const kept = Math.max(0, room);
  return `${text.slice(0, kept)}\n${cutMarker(text.length - kept)}`;
}

/**
 * A tool's output within the cap. Structured output that fits is kept as
 * it is; one whose JSON does not fit becomes that JSON, cut, as text.
 */
export function capOutput(output: unknown, max = MAX_RESULT_CHARS): unknown {
  if (typeof output === 'string') return capText(output, max);
  if (output === null || typeof output !== 'object') return output;
  const json = JSON.stringify(output);
  if (json === undefined || json.length <= max) return output;
  return capText(json, max);
}
