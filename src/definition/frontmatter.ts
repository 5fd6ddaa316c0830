export interface FrontmatterSplit {
  /** False when the file has no `---` block: the whole file is the body. */
  found: boolean;
  yamlText: string;
  /** 1-based line of the first frontmatter line (after the opening `---`). */
  yamlStartLine: number;
  body: string;
  bodyStartLine: number;
}

/**
 * Splits `---\nyaml\n---\nbody`. Tolerates leading blank lines and a block
 * indented as a whole (both occur in real agent files); the body is dedented
 * by the same indentation. Expects LF line ends.
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const lines = text.split('\n');
  const open = lines.findIndex((line) => line.trim() !== '');
  const none = { found: false, yamlText: '', yamlStartLine: 1, body: text, bodyStartLine: 1 };
  if (open < 0 || lines[open]?.trim() !== '---') return none;
  const close = lines.findIndex((line, i) => i > open && line.trim() === '---');
  if (close < 0) return none;
  const indent = /^\s*/.exec(lines[open] ?? '')?.[0] ?? '';
  const bodyLines = lines
    .slice(close + 1)
    .map((line) => (indent && line.startsWith(indent) ? line.slice(indent.length) : line));
  return {
    found: true,
    yamlText: lines.slice(open + 1, close).join('\n'),
    yamlStartLine: open + 2,
    body: bodyLines.join('\n'),
    bodyStartLine: close + 2,
  };
}

/** The body as a system prompt: surrounding blank lines dropped, inner text kept as written. */
export const bodyToPrompt = (body: string): string => body.replace(/^\s*\n/, '').trimEnd();
