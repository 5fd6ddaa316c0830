import { openProjectTrust, recordTrust } from '../trust/project-trust.js';
import type { ProjectGate } from '../trust/project-gate.js';
import { askToTrust } from '../trust/trust-prompt.js';
import { refusalLines } from '../trust/trust-report.js';
import type { CliIO } from './cli-io.js';
import { createStyle } from './style.js';

export interface TrustFlowOptions {
  /** `--trust-project`: everything loads for this run; nothing is recorded. */
  trustProject?: boolean;
  /** On a terminal, ask once whether to trust what was left out (`cadre run`, `cadre chat`). */
  ask?: boolean;
  signal?: AbortSignal;
}

/**
 * Loads what a command needs through the project's trust gate. Untrusted
 * files are left out and named on stderr with how to trust them; on a
 * terminal (when `ask`), the person is asked once first, and a yes records
 * the trust and loads again. Without a terminal nothing untrusted loads.
 */
export async function withProjectTrust<T>(
  io: CliIO,
  options: TrustFlowOptions,
  load: (gate: ProjectGate) => Promise<T>,
): Promise<T> {
  const open = () =>
    openProjectTrust({
      cwd: io.cwd,
      env: io.env,
      ...(options.trustProject ? { oneRun: true } : {}),
    });
  let trust = await open();
  let outcome = await settle(load(trust.gate));
  const trustable = trust.gate.refused().filter((entry) => !entry.denied);
  if (trustable.length > 0 && options.ask && io.isTTY && io.ask) {
    const signal = options.signal ?? new AbortController().signal;
    if (await askToTrust(io.ask, trustable, signal)) {
      await recordTrust(trust.storeFile, trust.gate.root, trustable);
      trust = await open();
      outcome = await settle(load(trust.gate));
    }
  }
  reportRefusals(io, trust.gate, trust.notes);
  if (outcome.ok) return outcome.value;
  throw outcome.error;
}

/** Names each file left out on stderr, with how to trust them. */
export function reportRefusals(io: CliIO, gate: ProjectGate, notes: readonly string[]): void {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  for (const line of refusalLines(gate.refused(), notes))
    io.stderr(line.startsWith(' ') ? `${line}\n` : `${style.yellow('warning')} ${line}\n`);
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A load that failed may have failed for want of trust: asked first, thrown after. */
async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}
