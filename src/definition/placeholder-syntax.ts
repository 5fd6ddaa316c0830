import type { PlaceholderStyle } from './types.js';

/** A placeholder as written in a prompt: `token` is its exact text, at `index`. */
export type Placeholder =
  | { kind: 'value'; token: string; index: number; name: string; optional: boolean }
  /** ADK `{artifact.file}`: Cadre has no artifact store, so only `{artifact.file?}` (empty) can be filled. */
  | { kind: 'artifact'; token: string; index: number; name: string; optional: boolean };

const DOLLAR = /\$\{(\w+)\}/g;
/** ADK's own pattern: any run of braces around text without braces. */
const BRACES = /\{+([^{}]*)\}+/g;
/** ADK state names: an identifier, optionally scoped `app:`, `user:` or `temp:`. */
const STATE_NAME = /^(?:(?:app|user|temp):)?[\p{L}_][\p{L}\p{N}_]*$/u;

function braced(token: string, inner: string, index: number): Placeholder | undefined {
  const optional = inner.endsWith('?');
  const name = optional ? inner.slice(0, -1) : inner;
  if (name.startsWith('artifact.'))
    return { kind: 'artifact', token, index, name: name.slice('artifact.'.length), optional };
  // Anything else in braces (JSON, `{ x }`, code) is text, not a placeholder.
  return STATE_NAME.test(name) ? { kind: 'value', token, index, name, optional } : undefined;
}

/** The placeholders `text` holds under `style`, in order. */
export function findPlaceholders(text: string, style: PlaceholderStyle): Placeholder[] {
  switch (style) {
    case 'none':
      return [];
    case 'dollar':
      return [...text.matchAll(DOLLAR)].map((match) => ({
        kind: 'value' as const,
        token: match[0],
        index: match.index,
        name: match[1] ?? '',
        optional: false,
      }));
    case 'braces':
      return [...text.matchAll(BRACES)].flatMap((match) => {
        const found = braced(match[0], match[1] ?? '', match.index);
        return found ? [found] : [];
      });
    default:
      return style satisfies never;
  }
}
