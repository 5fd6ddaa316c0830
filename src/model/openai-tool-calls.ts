/**
 * Streamed Chat Completions tool calls arrive as fragments keyed by `index`:
 * the first names the call, later ones append to `arguments`. This puts
 * them back together.
 */
import type { FunctionCallPart } from './types.js';

/** Key under which unparseable arguments are passed on, so the executor can answer with a validation error. */
export const INVALID_JSON_ARGS_KEY = '__invalid_json__';

export interface ToolCallFragment {
  index: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

export class ToolCallAssembler {
  readonly #calls = new Map<number, PendingCall>();
  readonly #nextCallId: () => string;

  constructor(nextCallId: () => string) {
    this.#nextCallId = nextCallId;
  }

  add(fragment: ToolCallFragment): void {
    const call = this.#calls.get(fragment.index) ?? { id: '', name: '', args: '' };
    if (fragment.id && !call.id) call.id = fragment.id;
    const name = fragment.function?.name;
    // Most servers name the call once; a few repeat the full name on every fragment.
    if (name && call.name !== name) call.name += name;
    call.args += fragment.function?.arguments ?? '';
    this.#calls.set(fragment.index, call);
  }

  /** The finished calls in index order. */
  finish(): FunctionCallPart[] {
    return [...this.#calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({
        kind: 'function_call',
        id: call.id || this.#nextCallId(),
        name: call.name,
        args: parseArgs(call.args),
      }));
  }
}

export function parseArgs(raw: string): Record<string, unknown> {
  if (raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // fall through: not JSON
  }
  return { [INVALID_JSON_ARGS_KEY]: raw };
}
