/** One place where two JSON values differ. */
export interface DiffEntry {
  /** `systemInstruction`, `messages[2].parts[0].text`… */
  path: string;
  recorded: string;
  replayed: string;
}

const MAX_ENTRIES = 8;
const CONTEXT = 40;

/**
 * The differing leaves of two JSON values, shallowest first, at most a
 * handful: enough to see why a request diverged without a wall of JSON.
 */
export function diffJson(recorded: unknown, replayed: unknown, path = ''): DiffEntry[] {
  const out: DiffEntry[] = [];
  walk(recorded, replayed, path, out);
  return out.slice(0, MAX_ENTRIES);
}

function walk(a: unknown, b: unknown, path: string, out: DiffEntry[]): void {
  if (out.length >= MAX_ENTRIES || JSON.stringify(a) === JSON.stringify(b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length)
      out.push({
        path: path || '(root)',
        recorded: `${a.length} items`,
        replayed: `${b.length} items`,
      });
    for (let i = 0; i < Math.min(a.length, b.length); i++) walk(a[i], b[i], `${path}[${i}]`, out);
    return;
  }
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
      walk(a[key], b[key], path ? `${path}.${key}` : key, out);
    return;
  }
  if (typeof a === 'string' && typeof b === 'string') {
    const [ra, rb] = aroundFirstDifference(a, b);
    out.push({ path: path || '(root)', recorded: ra, replayed: rb });
    return;
  }
  out.push({ path: path || '(root)', recorded: short(a), replayed: short(b) });
}

/** Both strings cut to a window around where they first differ, quoted. */
function aroundFirstDifference(a: string, b: string): [string, string] {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const cut = (s: string): string => {
    const start = Math.max(0, i - CONTEXT);
    const end = Math.min(s.length, i + CONTEXT);
    return `${start > 0 ? '…' : ''}${JSON.stringify(s.slice(start, end))}${end < s.length ? '…' : ''}`;
  };
  return [cut(a), cut(b)];
}

function short(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 2 * CONTEXT ? `${text.slice(0, 2 * CONTEXT)}…` : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Lines a person reads: path, then the recorded and the replayed value. */
export function formatDiff(entries: readonly DiffEntry[], indent = '  '): string {
  return entries
    .map(
      (e) =>
        `${indent}${e.path}\n${indent}  - recorded: ${e.recorded}\n${indent}  + replayed: ${e.replayed}`,
    )
    .join('\n');
}
