import { canonicalToolName } from '../definition/tool-names.js';
import { parseGeminiMcpName } from '../definition/gemini-mcp-name.js';
import { mcpToolName, parseMcpReference, type McpReference } from '../definition/mcp-tool-names.js';
import type { ApproveScope } from './approve-scope.js';

/** One `--approve` value, read the way tool lists read names. */
type Approval =
  | { kind: 'all' }
  | { kind: 'mcp'; reference: McpReference; matches: (tool: string) => boolean }
  | { kind: 'name'; name: string; matches: (tool: string) => boolean };

/** What function names may hold; the rest becomes `_`, as MCP tool names do. */
const safe = (text: string): string => text.replace(/[^A-Za-z0-9_-]/g, '_');
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `gmail_*` → a test on whole names; a name without `*` must be equal. */
function glob(pattern: string, part: (text: string) => string = (text) => text) {
  if (!pattern.includes('*')) return (name: string) => name === pattern;
  const regex = new RegExp(`^${pattern.split('*').map(part).map(escape).join('.*')}$`);
  return (name: string) => regex.test(name);
}

/**
 * `all`; a tool by any name a tool list accepts (`write_file`, `Write`);
 * an MCP tool as `server__tool`, `mcp__server__tool`, `mcp_server_tool`
 * (Gemini CLI) or `mcp__server` (every tool); `*` anywhere (`server__*`, `gmail_*`).
 */
function readApproval(written: string, servers: ReadonlySet<string>): Approval {
  const name = written.trim();
  if (name === 'all') return { kind: 'all' };
  const reference = parseMcpReference(name, servers) ?? parseGeminiMcpName(name, servers);
  if (reference) {
    const exact = mcpToolName(reference.server, reference.tool);
    const toolGlob = glob(reference.tool, safe);
    const prefix = `${safe(reference.server)}__`;
    return {
      kind: 'mcp',
      reference,
      matches: reference.tool.includes('*')
        ? (tool) => tool.startsWith(prefix) && toolGlob(tool.slice(prefix.length))
        : (tool) => tool === exact,
    };
  }
  const canonical = canonicalToolName(name);
  return { kind: 'name', name: canonical, matches: glob(canonical) };
}

export interface ApproveList {
  /** Every tool is approved (`--approve all`). */
  all: boolean;
  /** Whether calls of this tool (the name the model calls) were approved beforehand. */
  covers(tool: string): boolean;
}

/** The `--approve` values as one test on the names tool calls arrive with. */
export function approveList(written: readonly string[], servers: ReadonlySet<string>): ApproveList {
  const approvals = written.map((name) => readApproval(name, servers));
  const all = approvals.some((approval) => approval.kind === 'all');
  return {
    all,
    covers: (tool) =>
      all || approvals.some((approval) => approval.kind !== 'all' && approval.matches(tool)),
  };
}

/**
 * The `--approve` values that match no tool the run can use: a typo must
 * not look like a decision. MCP tools are known only once servers start, so
 * a server granted whole accepts any tool name of it.
 */
export function unmatchedApprovals(
  written: readonly string[],
  scope: ApproveScope,
  pool: readonly string[],
): string[] {
  const local = [...scope.local, ...(scope.open ? pool : [])];
  return written.filter((name) => {
    const approval = readApproval(name, scope.servers);
    if (approval.kind === 'all') return false;
    if (approval.kind === 'mcp') return !scope.mcp.some((grant) => mcpCovers(approval, grant));
    if (local.some(approval.matches)) return false;
    return !scope.mcp.some((grant) =>
      grant.tool === '*'
        ? mayMatchServer(approval.name, grant.server)
        : approval.matches(mcpToolName(grant.server, grant.tool)),
    );
  });
}

function mcpCovers(approval: Approval & { kind: 'mcp' }, grant: McpReference): boolean {
  const { reference } = approval;
  if (grant.server !== reference.server) return false;
  if (grant.tool === '*' || reference.tool === '*') return true;
  return approval.matches(mcpToolName(grant.server, grant.tool));
}

/** A glob such as `gmail_*` may name tools of a server granted whole (its tools are not listed yet). */
function mayMatchServer(pattern: string, server: string): boolean {
  const at = pattern.indexOf('*');
  if (at < 0) return false;
  const literal = pattern.slice(0, at);
  const prefix = `${safe(server)}__`;
  return literal.startsWith(prefix) || prefix.startsWith(literal);
}
