import type { Message } from '../../model/types.js';
import type { LoopContext } from '../loop/loop-context.js';
import type { CompactionSettings } from './compaction-settings.js';

/*
 * Where a conversation may be cut, and whether it is due: checked before
 * every turn, so it loads with the loop; the folding itself
 * (compact-conversation.ts) loads the first time a conversation is due.
 */

/**
 * True when `messages[0..cut)` can be folded and `messages[cut..]` kept:
 * every call before the cut is answered before it, and nothing kept answers
 * a call that is folded (providers reject a call without its answer).
 */
export function isSafeCut(messages: readonly Message[], cut: number): boolean {
  if (cut <= 0 || cut >= messages.length) return false;
  const open = new Set<string>();
  for (const message of messages.slice(0, cut)) {
    for (const part of message.parts) {
      if (part.kind === 'function_call') open.add(part.id);
      if (part.kind === 'function_response') open.delete(part.id);
    }
  }
  return open.size === 0 && !messages[cut]?.parts.some((p) => p.kind === 'function_response');
}

/** The nearest safe cut at or before `cut`, or 0 when there is none. */
export function safeCutAtOrBefore(messages: readonly Message[], cut: number): number {
  for (let at = Math.min(cut, messages.length - 1); at > 0; at--) {
    if (isSafeCut(messages, at)) return at;
  }
  return 0;
}

/** Where the newest `keepTurns` model turns begin (fewer when the run has fewer); 0: nothing to fold. */
export function turnCut(messages: readonly Message[], keepTurns: number): number {
  const turnStarts = messages.flatMap((m, i) => (m.role === 'model' ? [i] : []));
  if (turnStarts.length < 2) return 0;
  const keep = Math.min(keepTurns, turnStarts.length - 1);
  return safeCutAtOrBefore(messages, turnStarts[turnStarts.length - keep] ?? 0);
}

/**
 * At a run's start, where the opening history (every message before the
 * prompt) is cut so `window` of its messages stay; 0 until it holds half as
 * many again, so a thread is summarised every few messages, not on each.
 */
export function historyCut(messages: readonly Message[], window: number): number {
  const history = messages.length - 1;
  if (history <= window + Math.ceil(window / 2)) return 0;
  return safeCutAtOrBefore(messages, history - window);
}

export type CompactionScope = 'run' | 'history';

export interface CompactionPlan {
  scope: CompactionScope;
  cut: number;
}

/** Whether (and where) the conversation is folded before the next model call. */
export function planCompaction(
  ctx: Pick<LoopContext, 'state'>,
  settings: CompactionSettings,
): CompactionPlan | undefined {
  if (!settings.enabled) return undefined;
  const { state } = ctx;
  if (state.turns === 0 && settings.historyWindow !== undefined) {
    const cut = historyCut(state.messages, settings.historyWindow);
    if (cut > 0) return { scope: 'history', cut };
  }
  const tokens = state.contextTokens;
  if (tokens === undefined || settings.contextWindow === undefined) return undefined;
  if (tokens < settings.threshold * settings.contextWindow) return undefined;
  const cut = turnCut(state.messages, settings.keepTurns);
  return cut > 0 ? { scope: 'run', cut } : undefined;
}
