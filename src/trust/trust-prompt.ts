import type { GateEntry } from './project-gate.js';
import { trustQuestion } from './trust-report.js';

/** Asks a terminal once whether to trust `entries`; only `y` / `yes` is yes. */
export async function askToTrust(
  ask: (question: string, signal: AbortSignal) => Promise<string>,
  entries: readonly GateEntry[],
  signal: AbortSignal,
): Promise<boolean> {
  const answer = (await ask(trustQuestion(entries), signal)).trim().toLowerCase();
  return answer === 'y' || answer === 'yes';
}
