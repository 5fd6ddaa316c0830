/**
 * Naming a grant without its whole id. Grant ids are time-ordered UUIDs, so
 * grants made close together share their first digits; their last digits are
 * random. `grants list` shows the shortest tail that is unique, and `grants
 * revoke` takes the full id, a unique tail or a unique head of it.
 */

/** Fewer characters are refused: one typo would pick a grant by chance. */
export const MIN_GRANT_ID_PART = 6;

/** Tails shorter than this are not shown even when unique, so a listed id stays valid as grants are added. */
const MIN_SHORT_ID = 8;

/** The shortest tail (at least 8 characters) that tells each id from all the others. */
export function shortGrantIds(ids: readonly string[]): Map<string, string> {
  const longest = Math.max(0, ...ids.map((id) => id.length));
  for (let length = MIN_SHORT_ID; length < longest; length += 1) {
    const tails = new Set(ids.map((id) => id.slice(-length)));
    if (tails.size === new Set(ids).size) return new Map(ids.map((id) => [id, id.slice(-length)]));
  }
  return new Map(ids.map((id) => [id, id]));
}

export type GrantIdMatch<T> =
  | { readonly kind: 'one'; readonly grant: T }
  | { readonly kind: 'none' }
  | { readonly kind: 'too_short' }
  | { readonly kind: 'ambiguous'; readonly matches: readonly T[] };

/** Which grant `wanted` names: the id itself, or the one id that starts or ends with it. */
export function matchGrantId<T extends { readonly id: string }>(
  grants: readonly T[],
  wanted: string,
): GrantIdMatch<T> {
  const exact = grants.find((g) => g.id === wanted);
  if (exact) return { kind: 'one', grant: exact };
  if (wanted.length < MIN_GRANT_ID_PART) return { kind: 'too_short' };
  const needle = wanted.toLowerCase();
  const matches = grants.filter((g) => {
    const id = g.id.toLowerCase();
    return id.startsWith(needle) || id.endsWith(needle);
  });
  const [first] = matches;
  if (!first) return { kind: 'none' };
  return matches.length === 1 ? { kind: 'one', grant: first } : { kind: 'ambiguous', matches };
}
