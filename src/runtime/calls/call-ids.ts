import type { FunctionCallPart, Message, Part } from '../../model/types.js';

/**
 * Every call id of a run so far: read from its conversation once (a new or
 * resumed run), then grown by each turn's calls as they are added, so a turn
 * checks its new ids without reading the conversation again (checking them
 * against every earlier message made a run's turns quadratic). Ids of turns
 * folded away by compaction stay taken: a model reusing one gets a new id.
 */
export function callIdsOf(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'model') continue;
    for (const part of message.parts) if (part.kind === 'function_call') ids.add(part.id);
  }
  return ids;
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
