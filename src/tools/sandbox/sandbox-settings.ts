import { ConfigError } from '../../errors/index.js';

/** How processes started by tools are confined, from the environment or the embedding code. */
export interface SandboxSettings {
  /** `auto`: bubblewrap when it can start, else every call asks a person; `off`: never sandbox (and always ask). */
  mode: 'auto' | 'off';
  /** `none` unless the project opens it: a command then reaches no host at all. */
  network: 'none' | 'open';
  /** Further paths to hide inside the sandbox: absolute, `~/…`, or relative to the workspace. */
  hide: readonly string[];
  /** Paths under a hidden folder to show read-only again (written as `hide`). */
  read: readonly string[];
  /**
   * `read` (default): `.git` is read-only, so a command can inspect history but not commit;
   * `commit`: agents may commit, and `.git` still cannot be moved or replaced, nor its
   * config, hooks and info changed.
   */
  git: 'read' | 'commit';
}

const SANDBOX_VARIABLES = {
  mode: 'CADRE_SANDBOX',
  network: 'CADRE_SANDBOX_NETWORK',
  hide: 'CADRE_SANDBOX_HIDE',
  read: 'CADRE_SANDBOX_READ',
  git: 'CADRE_SANDBOX_GIT',
} as const;

/**
 * Reads `CADRE_SANDBOX=auto|off`, `CADRE_SANDBOX_NETWORK=none|open`,
 * `CADRE_SANDBOX_GIT=read|commit` and `CADRE_SANDBOX_HIDE` / `_READ` (comma lists).
 */
export function sandboxSettingsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): SandboxSettings {
  return {
    mode: oneOf(env, SANDBOX_VARIABLES.mode, ['auto', 'off'] as const, 'auto'),
    network: oneOf(env, SANDBOX_VARIABLES.network, ['none', 'open'] as const, 'none'),
    hide: pathList(env[SANDBOX_VARIABLES.hide]),
    read: pathList(env[SANDBOX_VARIABLES.read]),
    git: oneOf(env, SANDBOX_VARIABLES.git, ['read', 'commit'] as const, 'read'),
  };
}

function oneOf<T extends string>(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  values: readonly T[],
  fallback: T,
): T {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return fallback;
  const found = values.find((v) => v === value);
  if (found === undefined)
    throw new ConfigError(`${name} must be one of ${values.join(', ')} (got "${value}").`);
  return found;
}

/** Relative entries stay as written: the sandbox resolves them against each command's workspace. */
function pathList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}
