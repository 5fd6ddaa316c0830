import type { FunctionCallPart, Message, Part } from '../../model/types.js';

/**
 * Every call id of a conversation so far, kept between turns: a conversation
 * only grows, so a turn reads only the messages it added (checking each new
 * id against every earlier message made a run's turns quadratic). A fold or
 * a trim makes a new conversation array, which starts the set again.
 */
export interface CallIdsSoFar {
  messages: readonly Message[];
  count: number;
  /** The last message read: the set is kept only while it is still in place. */
  last: Message | undefined;
  ids: Set<string>;
}

/** `kept` brought up to date with `messages` (or made anew for a new conversation). */
export function callIdsSoFar(
  kept: CallIdsSoFar | undefined,
  messages: readonly Message[],
): CallIdsSoFar {
  if (
    !kept ||
    kept.messages !== messages ||
    kept.count > messages.length ||
    (kept.count > 0 && messages[kept.count - 1] !== kept.last)
  ) {
    kept = { messages, count: 0, last: undefined, ids: new Set() };
  }
  for (let i = kept.count; i < messages.length; i++) {
    const message = messages[i] as Message;
    if (message.role !== 'model') continue;
    for (const part of message.parts) if (part.kind === 'function_call') kept.ids.add(part.id);
  }
  kept.count = messages.length;
  kept.last = messages[messages.length - 1];
  return kept;
}

/**
 * Call ids must be unique within a run: actions, approvals and answers are
 * keyed by them. A model (or a provider) that repeats an id, reuses one from
 * an earlier turn, or sends none gets fresh ones here, before anything is
 * run or paused; the model sees the renamed ids in its own turn, so every
 * answer still matches its call. `taken` is every id of the run so far.
 */
export function withUniqueCallIds(
  taken: ReadonlySet<string>,
  parts: readonly Part[],
): { parts: Part[]; calls: FunctionCallPart[] } {
  if (callIdsUnique(taken, parts)) {
    const calls = parts.filter((part): part is FunctionCallPart => part.kind === 'function_call');
    return { parts: [...parts], calls };
  }
  const used = new Set(taken);
  const calls: FunctionCallPart[] = [];
  const renamed = parts.map((part) => {
    if (part.kind !== 'function_call') return part;
    const base = part.id.trim() || `call_${part.name}`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}~${n}`;
    used.add(id);
    const call = id === part.id ? part : { ...part, id };
    calls.push(call);
    return call;
  });
  return { parts: renamed, calls };
}

/**
 * The usual case, checked without building a set of the turn's ids (this runs
 * once per turn): each id is set, trimmed, and new to the run.
 */
export function callIdsUnique(taken: ReadonlySet<string>, parts: readonly Part[]): boolean {
  // Most turns make one call: its id alone, then any others, without a collection.
  let first: string | undefined;
  let others: string[] | undefined;
  for (const part of parts) {
    if (part.kind !== 'function_call') continue;
    const id = part.id;
    if (id === '' || id.trim() !== id || taken.has(id)) return false;
    if (first === undefined) {
      first = id;
      continue;
    }
    if (id === first || others?.includes(id)) return false;
    (others ??= []).push(id);
  }
  return true;
}
