import {
  contextWindowFor,
  DEFAULT_CONTEXT_WINDOWS,
  type ContextWindowTable,
} from '../../cost/context-windows.js';
import type { CompactionConfig } from '../../definition/types.js';

export const DEFAULT_THRESHOLD = 0.8;
export const DEFAULT_KEEP_TURNS = 4;
export const DEFAULT_MAX_TOOL_RESULT_CHARS = 4_000;

/** How one execution compacts its conversation, resolved once per run. */
export interface CompactionSettings {
  enabled: boolean;
  threshold: number;
  keepTurns: number;
  /** Unknown for a model missing from the table: then only the thread window can trigger. */
  contextWindow?: number;
  maxToolResultChars: number;
  /**
   * Opening history messages (a thread's) kept verbatim; older ones are
   * summarised at the first turn once they exceed this by half again.
   */
  historyWindow?: number;
}

export function compactionSettings(
  config: CompactionConfig | undefined,
  model: string,
  options: { contextWindows?: ContextWindowTable; historyWindow?: number },
): CompactionSettings {
  const contextWindow =
    config?.context_window ??
    contextWindowFor(model, options.contextWindows ?? DEFAULT_CONTEXT_WINDOWS);
  return {
    enabled: config?.enabled ?? true,
    threshold: config?.threshold ?? DEFAULT_THRESHOLD,
    keepTurns: config?.keep_turns ?? DEFAULT_KEEP_TURNS,
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    maxToolResultChars: config?.max_tool_result_chars ?? DEFAULT_MAX_TOOL_RESULT_CHARS,
    ...(options.historyWindow !== undefined ? { historyWindow: options.historyWindow } : {}),
  };
}
