import { refusalReason, type GateEntry } from './project-gate.js';
import { showExactly } from './show-exactly.js';

/** `tools/x.tool.mjs (tool module, not trusted yet)` */
function describeEntry(entry: GateEntry): string {
  return `${showExactly(entry.key)} (${entry.kind}, ${refusalReason(entry)})`;
}

/** A path as a shell word, for the command a person may copy. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The lines a command prints when it left project files out: each file and
 * why, then how to trust them (files in the agents' workspace cannot be).
 */
export function refusalLines(refused: readonly GateEntry[], notes: readonly string[]): string[] {
  if (refused.length === 0) return [];
  const lines = refused.map((entry) => `not loaded: ${describeEntry(entry)}`);
  const trustable = refused.filter((entry) => !entry.denied);
  if (trustable.length > 0)
    lines.push(
      `  to trust them (after reading them): cadre trust ${[...new Set(trustable.map((e) => shellWord(showExactly(e.key))))].join(' ')}`,
      '  (or `cadre trust` for everything this project loads; --trust-project for one run, recording nothing)',
    );
  return [...lines, ...notes.map((note) => `  ${note}`)];
}

/** What a terminal shows before asking to trust: each file, and the commands it would start. */
export function trustQuestion(entries: readonly GateEntry[]): string {
  const lines = [
    '',
    'This project has code or configuration that Cadre would load or run on this machine, and that you have not trusted:',
  ];
  for (const entry of entries) {
    lines.push(`  ${describeEntry(entry)}  sha256 ${entry.sha256.slice(0, 12)}`);
    for (const detail of entry.detail) lines.push(`      starts: ${showExactly(detail)}`);
  }
  lines.push('Trust them? [y/N] ');
  return lines.join('\n');
}

/**
 * Said beside an unknown tool or MCP server name when tool modules or the
 * project's MCP file were left out: the likely reason, and the fix.
 */
export function untrustedHint(refused: readonly GateEntry[]): string | undefined {
  const left = refused.filter(
    (entry) => entry.kind === 'tool module' || entry.kind === 'MCP servers',
  );
  if (left.length === 0) return undefined;
  const files = left.map((entry) => `${showExactly(entry.key)} (${refusalReason(entry)})`);
  const trustable = left
    .filter((entry) => !entry.denied)
    .map((entry) => shellWord(showExactly(entry.key)));
  return `not loaded because untrusted: ${files.join(', ')}${trustable.length > 0 ? `; after reading it, run: cadre trust ${trustable.join(' ')}` : ''}`;
}
