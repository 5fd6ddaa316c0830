import type { FunctionResponsePart, ModelRequest } from './types.js';

/** How the latest tool calls ended, as a scripted turn can tell. */
export type ToolOutcome = 'ok' | 'error' | 'rejected';

export const TOOL_OUTCOMES: readonly ToolOutcome[] = ['ok', 'error', 'rejected'];

/**
 * When a scripted branch answers instead of the turn's own parts. Every
 * field given must hold. Text comparisons ignore case and spacing.
 */
export interface ScriptCondition {
  /**
   * The latest tool calls: `rejected` when a person (or the approval
   * handler) said no to one, else `error` when one failed or was refused,
   * else `ok`. Never holds when the turn follows no tool call.
   */
  toolResult?: ToolOutcome;
  /** The latest prompt (the last user text) includes this text. */
  promptIncludes?: string;
  /**
   * `["answer", "expected"]`: the latest prompt's `<answer>…</answer>`
   * includes the text of its `<expected>…</expected>` (both must be there,
   * and the second must not be empty).
   */
  sectionIncludes?: readonly [string, string];
}

/**
 * How the runtime words a person's "no", and a call no one could approve
 * (src/runtime/calls/approvals.ts); a test pins them. A script reads both as not run.
 */
const REJECTION = /^(The user rejected this call to |Not run: no one could approve this call to )/;

export function holds(condition: ScriptCondition, request: ModelRequest): boolean {
  const { toolResult, promptIncludes, sectionIncludes } = condition;
  if (toolResult !== undefined && toolOutcome(request) !== toolResult) return false;
  if (promptIncludes !== undefined && !fold(latestPrompt(request)).includes(fold(promptIncludes)))
    return false;
  if (sectionIncludes !== undefined) {
    const prompt = latestPrompt(request);
    const [outer, inner] = sectionIncludes;
    const haystack = section(prompt, outer);
    const needle = section(prompt, inner);
    if (haystack === undefined || needle === undefined || fold(needle) === '') return false;
    if (!fold(haystack).includes(fold(needle))) return false;
  }
  return true;
}

/** The answers to the latest tool calls: the last message, when it holds them. */
function latestResponses(request: ModelRequest): FunctionResponsePart[] {
  const last = request.messages.at(-1);
  if (last?.role !== 'user') return [];
  return last.parts.filter((p): p is FunctionResponsePart => p.kind === 'function_response');
}

function toolOutcome(request: ModelRequest): ToolOutcome | undefined {
  const responses = latestResponses(request);
  if (responses.length === 0) return undefined;
  const errors = responses.flatMap((r) => ('error' in r.response ? [r.response.error] : []));
  if (errors.some((e) => REJECTION.test(e))) return 'rejected';
  return errors.length > 0 ? 'error' : 'ok';
}

/** What the latest tool calls returned, as text: errors first, else the outputs. */
export function toolResultText(request: ModelRequest): string {
  const responses = latestResponses(request);
  const errors = responses.flatMap((r) => ('error' in r.response ? [r.response.error] : []));
  if (errors.length > 0) return errors.join(' ');
  return responses
    .map((r) => ('output' in r.response ? r.response.output : undefined))
    .map((output) => (typeof output === 'string' ? output : JSON.stringify(output)))
    .join(' ');
}

/** The text of the last user message that has any (tool answers carry none). */
export function latestPrompt(request: ModelRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i];
    if (message?.role !== 'user') continue;
    const text = message.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('\n');
    if (text) return text;
  }
  return '';
}

/** The text between `<name>` and `</name>`, or undefined when either is missing. */
function section(text: string, name: string): string | undefined {
  const open = `<${name}>`;
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(`</${name}>`, start + open.length);
  return end < 0 ? undefined : text.slice(start + open.length, end);
}

const fold = (text: string): string =>
  text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
