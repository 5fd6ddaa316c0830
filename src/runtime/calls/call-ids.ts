import type { FunctionCallPart, Message, Part } from '../../model/types.js';

/**
 * Call ids must be unique within a run: actions, approvals and answers are
 * keyed by them. A model (or a provider) that repeats an id, reuses one from
 * an earlier turn, or sends none gets fresh ones here, before anything is
 * run or paused; the model sees the renamed ids in its own turn, so every
 * answer still matches its call.
 */
export function withUniqueCallIds(
  earlier: readonly Message[],
  parts: readonly Part[],
): { parts: Part[]; calls: FunctionCallPart[] } {
  if (callIdsUnique(earlier, parts)) {
    const calls = parts.filter((part): part is FunctionCallPart => part.kind === 'function_call');
    return { parts: [...parts], calls };
  }
  const taken = new Set<string>();
  for (const message of earlier)
    if (message.role === 'model')
      for (const part of message.parts) if (part.kind === 'function_call') taken.add(part.id);
  const calls: FunctionCallPart[] = [];
  const renamed = parts.map((part) => {
    if (part.kind !== 'function_call') return part;
    const base = part.id.trim() || `call_${part.name}`;
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}~${n}`;
    taken.add(id);
    const call = id === part.id ? part : { ...part, id };
    calls.push(call);
    return call;
  });
  return { parts: renamed, calls };
}

/**
 * The usual case, checked without building a set of every id so far (this
 * runs once per turn): each id is set, trimmed, and new to the run.
 */
export function callIdsUnique(earlier: readonly Message[], parts: readonly Part[]): boolean {
  // Most turns make one call: its id alone, then any others, without a collection.
  let first: string | undefined;
  let others: string[] | undefined;
  for (const part of parts) {
    if (part.kind !== 'function_call') continue;
    const id = part.id;
    if (id === '' || id.trim() !== id) return false;
    if (first === undefined) {
      first = id;
      continue;
    }
    if (id === first || others?.includes(id)) return false;
    (others ??= []).push(id);
  }
  if (first === undefined) return true;
  for (const message of earlier) {
    if (message.role !== 'model') continue;
    for (const part of message.parts)
      if (part.kind === 'function_call' && (part.id === first || others?.includes(part.id)))
        return false;
  }
  return true;
}
