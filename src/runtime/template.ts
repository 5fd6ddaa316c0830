import { ValidationError } from '../errors/validation-error.js';

const PLACEHOLDER = /\$\{(\w+)\}/g;

/**
 * Fills `${name}` placeholders from `values`. Strict: definition authors get
 * one error listing every missing key and the keys that were available.
 */
export function templateString(
  template: string,
  values: Readonly<Record<string, unknown>>,
  field = 'template',
): string {
  const missing = new Set<string>();
  const filled = template.replace(PLACEHOLDER, (match, key: string) => {
    if (!Object.hasOwn(values, key)) {
      missing.add(key);
      return match;
    }
    const value = values[key];
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
  if (missing.size > 0) {
    const available = Object.keys(values);
    throw new ValidationError([
      {
        path: field,
        message: `missing value for ${[...missing].map((k) => `\${${k}}`).join(', ')}; available: ${
          available.length ? available.join(', ') : '(none)'
        }`,
      },
    ]);
  }
  return filled;
}
