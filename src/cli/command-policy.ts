import { resolve } from 'node:path';
import { loadGatePolicy } from '../policy/policy-config.js';
import type { GatePolicy } from '../policy/tool-gate.js';
import type { FileGate } from '../contracts/file-gate.js';
import type { CliIO } from './cli-io.js';

/**
 * The gate policy of a command: `--policy FILE`, else CADRE_POLICY, with
 * CADRE_TRUST and CADRE_SIDE_EFFECTS. Read before anything runs, so a bad
 * file or setting stops the command before any model call.
 */
export function commandPolicy(
  io: CliIO,
  file: string | undefined,
  gate?: FileGate,
): Promise<GatePolicy> {
  return loadGatePolicy({
    ...(file ? { file } : {}),
    env: io.env,
    cwd: io.cwd,
    ...(gate ? { gate } : {}),
  });
}

/** The policy file a command would obey (`--policy`, else CADRE_POLICY), to ask the gate about it early. */
export function policyPath(io: CliIO, file: string | undefined): string | undefined {
  const named = file ?? (io.env.CADRE_POLICY || undefined);
  return named ? resolve(io.cwd, named) : undefined;
}
