import type { TraceCarrier } from '../../contracts/trace-carrier.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema } from '../../model/types.js';
import type { ApprovalAnswer, ApprovalQuestion } from './approval-question.js';

/** One agent as an MCP tool: its name, what it does, and the JSON Schemas of its inputs (and output). */
export interface AgentTool {
  name: string;
  description: string;
  title?: string;
  /** Always an object schema: MCP tool arguments are an object. */
  inputSchema: JsonSchema & { type: 'object' };
  /** Present when every successful call returns `structuredContent` of this shape. */
  outputSchema?: JsonSchema & { type: 'object' };
  /** `readOnlyHint` / `destructiveHint`, from the tools the agent is granted. */
  annotations?: ToolAnnotations;
}

/** What one `tools/call` may use of its MCP connection. */
export interface ToolCallContext {
  /** Aborted when the client cancels the call (or the connection closes). */
  signal: AbortSignal;
  /** Tells the client how the run goes; a no-op unless it sent a progressToken. */
  progress(message: string): void;
  /** Asks the person at the client to decide; absent when this client cannot be asked (no elicitation). */
  ask?: (question: ApprovalQuestion, signal: AbortSignal) => Promise<ApprovalAnswer>;
  /** The caller's W3C trace context (HTTP headers, or `traceparent` in the call's `_meta`): the run continues it. */
  trace?: TraceCarrier;
}

/**
 * Where the tools come from and how a call runs: agents in this process
 * (`cadre mcp`), or runs of the server's run service (`/mcp` under `cadre serve`).
 */
export interface AgentToolSource {
  list(): Promise<AgentTool[]>;
  /** Undefined when there is no tool of that name (the server answers with a protocol error). */
  call(
    name: string,
    args: Record<string, unknown>,
    context: ToolCallContext,
  ): Promise<CallToolResult | undefined>;
}

/** Where a result names the run it came from (to look it up, or its audit trail). */
export const RUN_ID_META = 'cadre/runId';

/** A result with one text block; `isError` for anything but a finished run. */
export function textResult(
  text: string,
  extra: { isError?: boolean; structuredContent?: Record<string, unknown>; runId?: string } = {},
): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    ...(extra.structuredContent ? { structuredContent: extra.structuredContent } : {}),
    ...(extra.isError ? { isError: true } : {}),
    ...(extra.runId ? { _meta: { [RUN_ID_META]: extra.runId } } : {}),
  };
}

/** Makes a schema an MCP object schema (definitions may leave out `type`); drops `$schema` and `$id`. */
export function objectSchema(schema: JsonSchema): JsonSchema & { type: 'object' } {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return { ...rest, type: 'object' };
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
