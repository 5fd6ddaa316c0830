import type { IssuePath, SourceMapper, SourcePosition } from './issues.js';
import type { YamlModule } from './lazy-modules.js';

export interface LineReadFrontmatter {
  data: Record<string, unknown>;
  mapper: SourceMapper;
}

interface Entry {
  key: string;
  first: string;
  rest: string[];
  line: number;
  column: number;
  valueColumn: number;
}

const KEY_LINE = /^(\s*)([A-Za-z_$][\w$.-]*)[ \t]*:(?:[ \t]+(.*))?$/;
const BLOCK_SCALAR = /^[|>][-+]?\d?$/;
/** Free text: never re-read as YAML (that is what failed). */
const TEXT_KEYS = new Set(['name', 'description', 'model']);

const unquote = (value: string): string => {
  const match = /^(["'])(.*)\1$/s.exec(value);
  return match ? (match[2] ?? '') : value;
};

function valueOf(entry: Entry, yaml: YamlModule): unknown {
  if (BLOCK_SCALAR.test(entry.first)) {
    const indents = entry.rest.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)?.[0].length ?? 0);
    const cut = Math.min(...indents, Number.MAX_SAFE_INTEGER);
    const lines = entry.rest.map((l) => l.slice(cut));
    return (entry.first.startsWith('>') ? lines.join(' ') : lines.join('\n')).trim();
  }
  const text = [entry.first, ...entry.rest.map((l) => l.trim())].join('\n').trim();
  if (!TEXT_KEYS.has(entry.key)) {
    // Lists and numbers (`tools: ["Read", "Grep"]`, `max_turns: 30`) still parse on their own.
    const doc = yaml.parseDocument([`${entry.key}: ${entry.first}`, ...entry.rest].join('\n'));
    const parsed: unknown = doc.errors.length === 0 ? doc.toJS() : undefined;
    if (parsed && typeof parsed === 'object' && entry.key in parsed)
      return (parsed as Record<string, unknown>)[entry.key];
  }
  return unquote(text);
}

/**
 * The fallback for frontmatter strict YAML rejects (`description: Triggers
 * on: 'GDPR'`, `<example>` blocks): `key: rest of line`, with lines that are
 * not `key:` at the base indentation appended to the previous value.
 * `lineOffset` is the file line before the first frontmatter line.
 */
export function readFrontmatterLines(
  yaml: YamlModule,
  text: string,
  lineOffset: number,
): LineReadFrontmatter {
  const lines = text.split('\n');
  const baseIndent =
    lines.find((l) => l.trim() && !l.trim().startsWith('#'))?.match(/^\s*/)?.[0].length ?? 0;
  const entries: Entry[] = [];
  lines.forEach((line, index) => {
    const match = KEY_LINE.exec(line);
    const indent = match?.[1]?.length ?? -1;
    if (match && indent === baseIndent) {
      const key = match[2] ?? '';
      const first = (match[3] ?? '').trim();
      const valueColumn = first
        ? line.indexOf(first, indent + key.length + 1) + 1
        : indent + key.length + 2;
      entries.push({
        key,
        first,
        rest: [],
        line: index + 1 + lineOffset,
        column: indent + 1,
        valueColumn,
      });
    } else if (line.trim().startsWith('#') && (/^\s*/.exec(line)?.[0].length ?? 0) === baseIndent) {
      return; // a comment line
    } else {
      entries[entries.length - 1]?.rest.push(line);
    }
  });
  const data: Record<string, unknown> = {};
  const positions = new Map<string, { key: SourcePosition; value: SourcePosition }>();
  for (const entry of entries) {
    data[entry.key] = valueOf(entry, yaml);
    positions.set(entry.key, {
      key: { line: entry.line, column: entry.column },
      value: { line: entry.line, column: entry.valueColumn },
    });
  }
  const root: SourcePosition = { line: lineOffset + 1, column: baseIndent + 1 };
  return {
    data,
    mapper: {
      display: (path: IssuePath) => path,
      position: (path, anchor) => {
        const found = path.length > 0 ? positions.get(String(path[0])) : undefined;
        if (!found) return root;
        return anchor === 'key' || path.length > 1 ? found.key : found.value;
      },
    },
  };
}
