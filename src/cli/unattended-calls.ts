import { escapeInvisible } from '../util/visible-text.js';
import type { Style } from './style.js';

/**
 * The tools whose calls needed a person's approval that no one could give
 * during one command (no terminal, not pre-approved): such a run exits
 * `EXIT.unapproved` and says how to allow them, instead of passing for done.
 */
export interface UnattendedCalls {
  note(tool: string): void;
  tools(): readonly string[];
}

export function unattendedCalls(): UnattendedCalls {
  const tools = new Set<string>();
  return { note: (tool) => void tools.add(tool), tools: () => [...tools] };
}

/** What the person reads on stderr: what was not run, and the three ways to allow it. */
export function unattendedNotice(tools: readonly string[], style: Style): string {
  const names = tools.map((tool) => escapeInvisible(tool));
  const list = names.join(', ');
  const first = names[0] ?? 'TOOL';
  const approve = names.map((name) => `--approve ${name}`).join(' ');
  return [
    `${style.red('error')} not run: ${list} needed approval, and without a terminal no one could give it.`,
    `  Allow it with ${approve} (or --approve all), or with a policy rule`,
    `  (--policy FILE, rule: {tool: ${first}, decision: allow, reason: …}); or run it on a terminal to be asked.`,
    '',
  ].join('\n');
}
