import { ValidationError } from '../../errors/validation-error.js';
import { findPlaceholders } from '../../definition/placeholder-syntax.js';
import type { PlaceholderStyle } from '../../definition/types.js';

const render = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

/**
 * Fills the placeholders of `style` from `values`: `${name}` (dollar),
 * ADK's `{name}` / `{name?}` (braces; `{artifact.x}` stays as written), or
 * nothing (none). `${name}` is strict: one error lists every missing
 * placeholder and the names that were available. A missing ADK `{name}`
 * stays as written: such an agent usually reads state an earlier agent of
 * its workflow stores, and run on its own it should still run (loading it
 * already warned).
 */
export function templateString(
  template: string,
  values: Readonly<Record<string, unknown>>,
  field = 'template',
  style: PlaceholderStyle = 'dollar',
): string {
  const missing = new Set<string>();
  let filled = '';
  let from = 0;
  for (const placeholder of findPlaceholders(template, style)) {
    filled += template.slice(from, placeholder.index);
    from = placeholder.index + placeholder.token.length;
    if (placeholder.kind === 'artifact') {
      filled += placeholder.token;
    } else if (Object.hasOwn(values, placeholder.name)) {
      filled += render(values[placeholder.name]);
    } else if (!placeholder.optional) {
      if (style !== 'braces') missing.add(placeholder.token);
      filled += placeholder.token;
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
