import path from 'node:path';
import { describeValue, isRecord } from './describe-value.js';
import type { RemoteAuth, RemoteHeader, SecretSource } from './types.js';

/** A problem with an `auth` block, at its path under `auth`. */
export interface AuthNote {
  path: (string | number)[];
  message: string;
  severity: 'error' | 'warning';
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Gemini CLI's dynamic value, read the safe way: `$NAME` or `${NAME}` is an
 * environment variable. A command (`!cmd`) is not run, and a literal (or an
 * escaped `$$…`) is a secret written in the file: both are refused.
 */
function dynamicValue(value: unknown, at: (string | number)[], notes: AuthNote[]) {
  if (typeof value === 'string') {
    const env = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(value.trim());
    if (env?.[1] && !value.trim().startsWith('$$')) return { env: env[1] };
    if (value.trim().startsWith('!') && !value.trim().startsWith('!!')) {
      notes.push({
        path: at,
        message:
          'commands are not run to get a secret; export it in an environment variable and write $NAME',
        severity: 'error',
      });
      return undefined;
    }
  }
  notes.push({
    path: at,
    message: `secrets are never read from the agent file; write $NAME to read the environment variable NAME (got ${typeof value === 'string' ? 'a literal value' : describeValue(value)})`,
    severity: 'error',
  });
  return undefined;
}

/** A `*_env` value: an environment variable's name. */
function envName(value: unknown, at: (string | number)[], notes: AuthNote[]) {
  if (typeof value === 'string' && ENV_NAME.test(value.trim())) return { env: value.trim() };
  notes.push({
    path: at,
    message: `expected the name of an environment variable, got ${describeValue(value)}`,
    severity: 'error',
  });
  return undefined;
}

/** A `*_file` value: a file holding the secret alone, relative to the agent file's folder. */
function fileName(value: unknown, at: (string | number)[], notes: AuthNote[], baseDir: string) {
  if (typeof value === 'string' && value.trim())
    return { file: path.resolve(baseDir, value.trim()) };
  notes.push({
    path: at,
    message: `expected the path of a file holding the secret, got ${describeValue(value)}`,
    severity: 'error',
  });
  return undefined;
}

function headerMap(
  value: unknown,
  key: string,
  notes: AuthNote[],
  source: (value: unknown, at: (string | number)[]) => SecretSource | undefined,
): RemoteHeader[] {
  if (!isRecord(value)) {
    notes.push({
      path: [key],
      message: `expected a mapping of header names, got ${describeValue(value)}`,
      severity: 'error',
    });
    return [];
  }
  return Object.entries(value).flatMap(([name, entry]): RemoteHeader[] => {
    if (!HEADER_NAME.test(name)) {
      notes.push({
        path: [key, name],
        message: `"${name}" is not a header name`,
        severity: 'error',
      });
      return [];
    }
    const secret = source(entry, [key, name]);
    return secret ? [{ name, value: { kind: 'secret', source: secret } }] : [];
  });
}

const CADRE_KEYS = ['bearer_env', 'bearer_file', 'headers_env', 'headers_file'] as const;

/** Cadre's form: `bearer_env`, `bearer_file`, `headers_env: {Header: NAME}`, `headers_file: {Header: path}`. */
function cadreAuth(auth: Record<string, unknown>, notes: AuthNote[], baseDir: string) {
  const headers: RemoteHeader[] = [];
  const bearer = (source: SecretSource | undefined) => {
    if (source)
      headers.push({ name: 'Authorization', prefix: 'Bearer ', value: { kind: 'secret', source } });
  };
  if (auth.bearer_env !== undefined) bearer(envName(auth.bearer_env, ['bearer_env'], notes));
  if (auth.bearer_file !== undefined)
    bearer(fileName(auth.bearer_file, ['bearer_file'], notes, baseDir));
  if (auth.headers_env !== undefined)
    headers.push(
      ...headerMap(auth.headers_env, 'headers_env', notes, (v, at) => envName(v, at, notes)),
    );
  if (auth.headers_file !== undefined)
    headers.push(
      ...headerMap(auth.headers_file, 'headers_file', notes, (v, at) =>
        fileName(v, at, notes, baseDir),
      ),
    );
  for (const key of Object.keys(auth))
    if (!(CADRE_KEYS as readonly string[]).includes(key))
      notes.push({
        path: [key],
        message: `unknown auth field "${key}" (expected ${CADRE_KEYS.join(', ')}, or Gemini CLI's type: apiKey | http)`,
        severity: 'error',
      });
  return headers;
}

/** Gemini CLI's form: `type: apiKey` (`key`, `name`) or `type: http` (`scheme` with `token`, `username`/`password` or `value`). */
function geminiAuth(auth: Record<string, unknown>, notes: AuthNote[]): RemoteHeader[] | undefined {
  const value = (key: string) => dynamicValue(auth[key], [key], notes);
  if (auth.type === 'apiKey') {
    const name = typeof auth.name === 'string' && auth.name.trim() ? auth.name.trim() : 'X-API-Key';
    const key = value('key');
    return key ? [{ name, value: { kind: 'secret', source: key } }] : [];
  }
  if (auth.type === 'http') {
    const scheme = typeof auth.scheme === 'string' ? auth.scheme.trim() : '';
    if (!scheme) {
      notes.push({
        path: ['scheme'],
        message: 'http auth needs a scheme (Bearer, Basic, …)',
        severity: 'error',
      });
      return [];
    }
    if (scheme.toLowerCase() === 'basic') {
      const username = value('username');
      const password = value('password');
      return username && password
        ? [{ name: 'Authorization', value: { kind: 'basic', username, password } }]
        : [];
    }
    const secret = value(scheme.toLowerCase() === 'bearer' ? 'token' : 'value');
    return secret
      ? [{ name: 'Authorization', prefix: `${scheme} `, value: { kind: 'secret', source: secret } }]
      : [];
  }
  notes.push({
    path: ['type'],
    message: `auth type ${describeValue(auth.type)} is not supported (apiKey and http are); the agent is called without it`,
    severity: 'warning',
  });
  return undefined;
}

/**
 * A remote agent's `auth` block: the headers each call sends, whose values
 * are read when the call is made, from environment variables or secret
 * files, never from the agent file. Two spellings: Gemini CLI's own
 * (`type: http, scheme: Bearer, token: $NAME`; `type: apiKey, key: $NAME`)
 * and Cadre's (`bearer_env: NAME`, `headers_env: {X-Api-Key: NAME}`,
 * `bearer_file` / `headers_file` naming files relative to the agent file).
 */
export function remoteAuth(
  value: unknown,
  baseDir: string,
): { auth?: RemoteAuth; notes: AuthNote[] } {
  const notes: AuthNote[] = [];
  if (!isRecord(value)) {
    notes.push({
      path: [],
      message: `expected a mapping, got ${describeValue(value)}`,
      severity: 'error',
    });
    return { notes };
  }
  const headers = 'type' in value ? geminiAuth(value, notes) : cadreAuth(value, notes, baseDir);
  if (!headers || headers.length === 0 || notes.some((n) => n.severity === 'error'))
    return { notes };
  return { auth: { headers }, notes };
}
