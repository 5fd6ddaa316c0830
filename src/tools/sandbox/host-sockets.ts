import { readFileSync } from 'node:fs';

/** Where Linux lists the unix sockets bound in this network namespace, with their paths. */
const UNIX_SOCKET_TABLE = '/proc/net/unix';

/**
 * The paths of unix sockets host services listen on, read afresh for each
 * command. Closing the network does not close these: a socket file in a
 * folder the sandbox shows (even read-only) still connects to its service,
 * so the sandbox covers each one outside the workspace with an empty file.
 */
export function listeningSocketPaths(read: () => string = readSocketTable): string[] {
  return parseSocketTable(read());
}

/** Pure: the bound, listening, file-system sockets of a `/proc/net/unix` text. */
export function parseSocketTable(table: string): string[] {
  const ACCEPTING = 0x10000;
  const found = new Set<string>();
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const socketPath = fields.slice(7).join(' ');
    // Abstract sockets (`@name`) live in the network namespace, which the sandbox replaces.
    if (!socketPath.startsWith('/')) continue;
    if ((Number.parseInt(fields[3] ?? '0', 16) & ACCEPTING) === 0) continue;
    found.add(socketPath);
  }
  return [...found];
}

function readSocketTable(): string {
  try {
    return readFileSync(UNIX_SOCKET_TABLE, 'utf8');
  } catch {
    return '';
  }
}
