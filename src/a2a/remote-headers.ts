import { readFile } from 'node:fs/promises';
import type { RemoteAuth, SecretSource } from '../definition/types.js';
import { ToolExecutionError } from '../errors/cadre-error.js';

const describe = (source: SecretSource): string =>
  'env' in source ? `the environment variable ${source.env}` : `the file ${source.file}`;

/** A secret as it is now: the variable's value, or the file's content without its final newline. */
async function secret(source: SecretSource, env: NodeJS.ProcessEnv): Promise<string> {
  let value: string | undefined;
  if ('env' in source) value = env[source.env];
  else value = await readFile(source.file, 'utf8').catch(() => undefined);
  value = value?.replace(/\r?\n$/, '');
  // Names where the secret comes from, never the secret.
  if (!value)
    throw new ToolExecutionError(
      `The remote agent's auth needs ${describe(source)}, which is not set.`,
    );
  if (/[\r\n]/.test(value))
    throw new ToolExecutionError(
      `${describe(source)} holds more than one line; a header value cannot.`,
    );
  return value;
}

/**
 * The headers a remote agent's calls send, read now (a rotated token is
 * picked up by the next call), from `env` or the secret files.
 */
export async function remoteHeaders(
  auth: RemoteAuth,
  env: NodeJS.ProcessEnv,
): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  for (const header of auth.headers) {
    const value = header.value;
    switch (value.kind) {
      case 'secret':
        headers[header.name] = `${header.prefix ?? ''}${await secret(value.source, env)}`;
        break;
      case 'basic': {
        const pair = `${await secret(value.username, env)}:${await secret(value.password, env)}`;
        headers[header.name] = `Basic ${Buffer.from(pair).toString('base64')}`;
        break;
      }
      default:
        value satisfies never;
    }
  }
  return headers;
}

/**
 * A fetch that adds `headers` to requests bound for `origin` only (every
 * request when undefined): a card may name an endpoint elsewhere, and the
 * secret is for the server the agent file names, not for wherever its card
 * points.
 */
export function fetchWithHeaders(
  origin: string | undefined,
  headers: Record<string, string>,
  base: typeof fetch = fetch,
): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    if (origin !== undefined && url.origin !== origin) return base(input, init);
    const merged = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, key) => merged.set(key, value));
    for (const [key, value] of Object.entries(headers)) merged.set(key, value);
    return base(input, { ...init, headers: merged });
  };
}
