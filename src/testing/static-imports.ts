import { readFileSync } from 'node:fs';
import path from 'node:path';

const packageName = (specifier: string): string =>
  specifier.startsWith('@')
    ? specifier.split('/').slice(0, 2).join('/')
    : (specifier.split('/')[0] ?? specifier);

/**
 * Walks the value (not `import type`, not `await import()`) imports from
 * `entry` through local files and lists every import of a `lazy` package
 * (or `node:` module, named in full): each one would load at start-up. Returns the files visited too (relative
 * to the entry's folder).
 */
export function eagerImportsOf(
  entry: string,
  lazy: readonly string[],
): { visited: number; offenders: string[]; files: string[] } {
  const seen = new Set<string>();
  const offenders: string[] = [];
  const base = path.dirname(entry);
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    const specifiers = [
      ...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^']+)';/gms),
      ...text.matchAll(/^export\s+(?!type\s)[^;]*?from\s+'([^']+)';/gms),
    ].map((match) => match[1] ?? '');
    for (const specifier of specifiers) {
      if (specifier.startsWith('.'))
        visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')));
      else if (
        specifier.startsWith('node:')
          ? lazy.includes(specifier)
          : lazy.includes(packageName(specifier))
      ) {
        offenders.push(`${path.relative(base, file)} imports ${specifier}`);
      }
    }
  };
  visit(entry);
  return {
    visited: seen.size,
    offenders,
    files: [...seen].map((file) => path.relative(base, file)),
  };
}
