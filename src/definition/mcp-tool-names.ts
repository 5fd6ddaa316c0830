import { sha256Hex } from '../util/sha256.js';

/** A grant of one MCP tool, or of every tool of a server (`tool: '*'`). */
export interface McpReference {
  server: string;
  tool: string;
}

const SEPARATOR = '__';
/** The longest function name Gemini and OpenAI accept. */
const MAX_NAME = 64;

/**
 * Cadre's name for an MCP reference in a tool list: `server__tool` or
 * `server__*`. Claude Code writes `mcp__server__tool` and `mcp__server`
 * (every tool); Cadre files may write `server__tool` for a server they
 * declare. Returns undefined for names that are not MCP references.
 */
export function parseMcpReference(
  name: string,
  knownServers: ReadonlySet<string>,
): McpReference | undefined {
  const trimmed = name.trim();
  if (trimmed.startsWith(`mcp${SEPARATOR}`)) {
    const rest = trimmed.slice(3 + SEPARATOR.length);
    const at = rest.indexOf(SEPARATOR);
    if (at < 0) return rest ? { server: rest, tool: '*' } : undefined;
    const server = rest.slice(0, at);
    const tool = rest.slice(at + SEPARATOR.length);
    return server && tool ? { server, tool } : undefined;
  }
  const at = trimmed.indexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const server = trimmed.slice(0, at);
  const tool = trimmed.slice(at + SEPARATOR.length);
  return knownServers.has(server) && tool ? { server, tool } : undefined;
}

export const referenceName = (reference: McpReference): string =>
  `${reference.server}${SEPARATOR}${reference.tool}`;

/**
 * The name the model sees for a server's tool: `server__tool`, with
 * characters function names may not hold replaced, and names over 64
 * characters shortened with a hash so two long names stay distinct.
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `${server}${SEPARATOR}${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');
  if (name.length <= MAX_NAME) return name;
  const hash = sha256Hex(name).slice(0, 8);
  return `${name.slice(0, MAX_NAME - 9)}_${hash}`;
}

/** True when a granted entry (`server__tool` or `server__*`) covers this server's tool. */
export function grantCovers(grant: McpReference, server: string, tool: string): boolean {
  return grant.server === server && (grant.tool === '*' || grant.tool === tool);
}
