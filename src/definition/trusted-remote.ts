import type { FileGate } from '../contracts/file-gate.js';
import type { LoadResult } from './load-options.js';
import type { RemoteAgentConfig, SecretSource } from './types.js';
import { displayFile } from './validate-context.js';

const sourceName = (source: SecretSource): string =>
  'env' in source ? `$${source.env}` : source.file;

/** `Authorization from $TOKEN, X-Key from /run/secrets/key`: what the calls would send, never the values. */
function describeAuth(remote: RemoteAgentConfig): string {
  return (remote.auth?.headers ?? [])
    .map((header) => {
      const value = header.value;
      const from =
        value.kind === 'secret'
          ? sourceName(value.source)
          : `${sourceName(value.username)} and ${sourceName(value.password)}`;
      return `${header.name} from ${from}`;
    })
    .join(', ');
}

/**
 * A remote agent whose auth reads this machine's environment or files
 * sends that secret to the URL the agent file names: like an MCP server by
 * URL with `${VAR}`s, it does so only when the gate trusts the file. An
 * untrusted one keeps its card URL, loses its auth, and is refused when
 * called (rather than called without it), with a warning now.
 */
export async function withTrustedRemote(
  loaded: LoadResult,
  file: string,
  gate: FileGate | undefined,
  cwd: string,
): Promise<LoadResult> {
  const remote = loaded.definition.remote;
  if (!gate || !remote?.auth) return loaded;
  const sends = describeAuth(remote);
  const name = loaded.definition.name;
  if (
    await gate.allows(file, 'remote agent auth', [`${name}: ${remote.agentCardUrl} gets ${sends}`])
  )
    return loaded;
  const shown = displayFile(file, cwd) ?? file;
  const message = `Remote agent "${name}" is not called: it would send ${sends} from this machine to ${remote.agentCardUrl}, and this file is not trusted (cadre trust ${shown})`;
  return {
    definition: {
      ...loaded.definition,
      remote: { agentCardUrl: remote.agentCardUrl, authRefused: message },
    },
    warnings: [...loaded.warnings, { path: 'auth', message, file: shown, severity: 'warning' }],
  };
}
