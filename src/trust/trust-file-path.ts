import path from 'node:path';

/**
 * Where trust is recorded: CADRE_TRUST_FILE, else
 * `$XDG_CONFIG_HOME/cadre/trust.json`, else `$HOME/.config/cadre/trust.json`.
 * Undefined when the environment names none of them (nothing is trusted).
 */
export function trustFilePath(env: NodeJS.ProcessEnv): string | undefined {
  const named = env.CADRE_TRUST_FILE?.trim();
  if (named) return path.resolve(named);
  const config = env.XDG_CONFIG_HOME?.trim();
  if (config && path.isAbsolute(config)) return path.join(config, 'cadre', 'trust.json');
  const home = env.HOME?.trim();
  return home ? path.join(home, '.config', 'cadre', 'trust.json') : undefined;
}
