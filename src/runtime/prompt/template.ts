import { ValidationError } from '../../errors/validation-error.js';
import { findPlaceholders } from '../../definition/placeholder-syntax.js';
import type { PlaceholderStyle } from '../../definition/types.js';

const render = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

/**
 * Fills the placeholders of `style` from `values`: `${name}` (dollar),
 * ADK's `{name}` / `{name?}` (braces), or nothing (none). A required
 * placeholder with no value is an error, in both styles: ADK fails the run
 * too, and a model reading `{code}` literally answers something else. One
 * error lists every missing placeholder and the names that were available.
 * ADK's `{artifact.x?}` is empty, `{artifact.x}` missing: Cadre has no
 * artifact store.
 */
export function templateString(
  template: string,
  values: Readonly<Record<string, unknown>>,
  field = 'template',
  style: PlaceholderStyle = 'dollar',
): string {
  // Most texts hold no placeholder at all: nothing to search for.
  if (style === 'none' || !template.includes(style === 'dollar' ? '${' : '{')) return template;
  const missing = new Set<string>();
  let filled = '';
  let from = 0;
  for (const placeholder of findPlaceholders(template, style)) {
    filled += template.slice(from, placeholder.index);
    from = placeholder.index + placeholder.token.length;
    if (placeholder.kind === 'artifact') {
      if (!placeholder.optional) missing.add(`${placeholder.token} (Cadre has no ADK artifacts)`);
    } else if (Object.hasOwn(values, placeholder.name)) {
      filled += render(values[placeholder.name]);
    } else if (!placeholder.optional) {
      missing.add(placeholder.token);
    }
  }
  filled += template.slice(from);
  if (missing.size > 0) {
    const available = Object.keys(values);
    throw new ValidationError([
      {
        path: field,
        message: `missing value for ${[...missing].join(', ')}; available: ${
          available.length ? available.join(', ') : '(none)'
        }`,
      },
    ]);
  }
  return filled;
}
