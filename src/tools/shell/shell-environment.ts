/** Variables a command gets by default: enough to find programs and read text, no secrets. */
export const BASE_ENV_NAMES: readonly string[] = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TERM',
  'TMPDIR',
  'USER',
  'LOGNAME',
  'SHELL',
  'TZ',
];

/** The variable naming extra variables to pass, comma-separated: `CADRE_SHELL_ENV=GOPATH,NODE_ENV`. */
export const PASS_ENV_VARIABLE = 'CADRE_SHELL_ENV';

const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Builds a command's environment from an allow-list, so API keys and tokens
 * in the runtime's own environment never reach it unless named in `passEnv`.
 * TERM is always `dumb`: output is read by a model, not a terminal.
 */
export function buildShellEnvironment(
  source: Readonly<Record<string, string | undefined>>,
  passEnv: readonly string[] = [],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_ENV_NAMES, ...passEnv]) {
    const value = source[name];
    if (VALID_NAME.test(name) && value !== undefined) env[name] = value;
  }
  env.TERM = 'dumb';
  return env;
}

/** Reads a comma-separated list of variable names; blanks and invalid names are dropped. */
export function parsePassEnv(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => VALID_NAME.test(name));
}
