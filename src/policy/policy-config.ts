import { resolve } from 'node:path';
import { ConfigError } from '../errors/cadre-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { FileGate } from '../contracts/file-gate.js';
import { loadPolicyFile } from './policy-file.js';
import type { GatePolicy } from './tool-gate.js';
import { TRUST_LEVELS, type TrustLevel } from './types.js';

const SIDE_EFFECTS = ['on', 'off'] as const;

/**
 * The gate's policy for a process: `--policy FILE` (else `CADRE_POLICY`),
 * `CADRE_TRUST` (the file's `trust` wins) and `CADRE_SIDE_EFFECTS`. Every
 * problem is a setup error (ConfigError, exit 2) raised before any model
 * call: a bad file names file:line:column and the field; an unknown value
 * names the variable and the values it takes.
 */
export async function loadGatePolicy(options: {
  file?: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Workspace trust: a policy file in the project is obeyed only when it
   * allows it. Refused, nothing runs: running without the rules a person
   * named, or with rules an agent rewrote, is not a choice made for them.
   */
  gate?: FileGate;
}): Promise<GatePolicy> {
  const { env } = options;
  const sideEffects = oneOf('CADRE_SIDE_EFFECTS', env.CADRE_SIDE_EFFECTS, SIDE_EFFECTS) ?? 'on';
  const envTrust = oneOf('CADRE_TRUST', env.CADRE_TRUST, TRUST_LEVELS);
  const path = options.file ?? (env.CADRE_POLICY || undefined);
  const gate = options.gate;
  if (path && gate && !(await gate.allows(resolve(options.cwd, path), 'policy')))
    throw new ConfigError(
      `The policy file ${path} is not obeyed (${gate.why?.(resolve(options.cwd, path)) ?? 'not trusted'}), and nothing runs without it. Trust it with: cadre trust ${path}`,
    );
  const file = path ? await readPolicy(resolve(options.cwd, path)) : undefined;
  const trust: TrustLevel | undefined = file?.trust ?? envTrust;
  return { rules: file?.rules ?? [], sideEffects, ...(trust ? { trust } : {}) };
}

/** An enum-valued setting: unset or empty is undefined; anything else must be listed. */
export function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const normalized = value.trim().toLowerCase();
  const found = allowed.find((a) => a === normalized);
  if (!found)
    throw new ConfigError(`${name}=${JSON.stringify(value)} is not one of: ${allowed.join(', ')}.`);
  return found;
}

async function readPolicy(file: string) {
  try {
    return await loadPolicyFile(file);
  } catch (error) {
    // A broken policy is a setup problem, not a broken agent: exit 2 with every issue listed.
    if (error instanceof ValidationError)
      throw new ConfigError(`Invalid policy file:\n${error.message}`, { cause: error });
    throw error;
  }
}
