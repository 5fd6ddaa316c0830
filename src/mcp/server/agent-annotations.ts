import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/**
 * What a client may assume of an agent served as a tool. An agent is
 * read-only when every tool it is granted is a known read (`isRead`):
 * MCP tools, subagents and unknown names may change things, so they make
 * it a possible destructive one. Approvals still gate each call inside the run.
 */
export function agentAnnotations(
  granted: readonly string[] | undefined,
  isRead: (tool: string) => boolean,
): ToolAnnotations {
  const readOnly = granted !== undefined && granted.every(isRead);
  return { readOnlyHint: readOnly, destructiveHint: !readOnly };
}
