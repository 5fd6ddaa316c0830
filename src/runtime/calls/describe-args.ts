/** `{path: "src/a.ts", start_line: 3}` on one line, long values shortened: for progress output. */
export function describeArgs(args: Readonly<Record<string, unknown>>, maxLength = 120): string {
  const parts = Object.entries(args).map(([key, value]) => {
    const text =
      typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? 'undefined');
    return `${key}: ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
  });
  const line = `{${parts.join(', ')}}`;
  return line.length > maxLength ? `${line.slice(0, maxLength - 4)}...}` : line;
}
