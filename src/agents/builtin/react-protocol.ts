/**
 * The ReAct text protocol, so any model can drive it (no function calling):
 * `Thought: …` then either `Action: <tool>` + `Action Input: <json>` or
 * `Final Answer: …`.
 */
export type ReactStep =
  | { kind: 'action'; thought: string; tool: string; input: string }
  | { kind: 'final_answer'; thought: string; answer: string }
  | { kind: 'malformed'; thought: string; problem: string };

type Label = 'thought' | 'action input' | 'action' | 'final answer' | 'observation';

interface Marker {
  label: Label;
  start: number;
  end: number;
}

// Labels count only at the start of a line; "Action Input" is tried before "Action".
const LABELS =
  /^[ \t]*(?:[*_]{1,2})?(thought|action input|action|final answer|observation)(?:[*_]{1,2})?[ \t]*:(?:[*_]{1,2})?/gim;

export const FORMAT_REMINDER =
  'Your reply did not follow the format. Write "Thought:" with your reasoning, then either ' +
  '"Action:" with one tool name and "Action Input:" with its arguments as a JSON object, ' +
  'or "Final Answer:" with the answer.';

export function parseReactStep(text: string): ReactStep {
  const all = [...text.matchAll(LABELS)].map((m): Marker => ({
    label: (m[1] ?? '').toLowerCase() as Label,
    start: m.index,
    end: m.index + m[0].length,
  }));
  // A model that writes an Observation has imagined the tool's result: nothing after it counts.
  const cut = all.findIndex((m) => m.label === 'observation');
  const markers = cut >= 0 ? all.slice(0, cut) : all;
  const limit = cut >= 0 ? (all[cut] as Marker).start : text.length;
  const body = (i: number): string =>
    text.slice((markers[i] as Marker).end, markers[i + 1]?.start ?? limit).trim();

  const decisive = markers.findIndex((m) => m.label === 'action' || m.label === 'final answer');
  const before = decisive < 0 ? markers.length : decisive;
  const thoughtAt = markers.slice(0, before).findIndex((m) => m.label === 'thought');
  const thought =
    thoughtAt >= 0 ? body(thoughtAt) : text.slice(0, markers[0]?.start ?? limit).trim();
  if (decisive < 0) return { kind: 'malformed', thought, problem: FORMAT_REMINDER };

  const marker = markers[decisive] as Marker;
  if (marker.label === 'final answer') {
    // The answer runs to the end, so a multi-line answer may contain label-like lines.
    const answer = text.slice(marker.end, limit).trim();
    return answer
      ? { kind: 'final_answer', thought, answer }
      : { kind: 'malformed', thought, problem: 'The Final Answer was empty.' };
  }
  const [firstLine = '', ...rest] = body(decisive).split('\n');
  const tool = firstLine.trim().replace(/^[`'"*]+|[`'"*.]+$/g, '');
  if (!tool) return { kind: 'malformed', thought, problem: 'The Action named no tool.' };
  const inputAt = markers.findIndex((m, i) => i > decisive && m.label === 'action input');
  // Some models put the JSON on the lines after the tool name instead of under "Action Input:".
  const input = inputAt >= 0 ? body(inputAt) : rest.join('\n').trim();
  return { kind: 'action', thought, tool, input };
}

/** The arguments object from an Action Input (bare or fenced JSON); empty means none. */
export function parseActionInput(
  input: string,
): { ok: true; args: Record<string, unknown> } | { ok: false; problem: string } {
  const fenced = /^```[a-zA-Z]*\s*\n?([\s\S]*?)```$/.exec(input.trim());
  const source = (fenced?.[1] ?? input).trim();
  if (!source) return { ok: true, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      problem: `Action Input is not valid JSON (${reason}). Send one JSON object.`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: "Action Input must be a JSON object of the tool's arguments." };
  return { ok: true, args: value as Record<string, unknown> };
}
