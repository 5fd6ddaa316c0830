/**
 * `{path: "src/a.ts", start_line: 3}` on one line, long values shortened: for
 * progress output and previews. Strings are quoted as they are, not JSON
 * escaped: the display escapes them once (`visibleText`), and JSON's own
 * escapes would be escaped again (`\n` shown as `\\n`).
 */
export function describeArgs(args: Readonly<Record<string, unknown>>, maxLength = 120): string {
  const parts = Object.entries(args).map(([key, value]) => {
    const text = typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? 'undefined');
    return `${key}: ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
  });
  const line = `{${parts.join(', ')}}`;
  return line.length > maxLength ? `${line.slice(0, maxLength - 4)}...}` : line;
}
