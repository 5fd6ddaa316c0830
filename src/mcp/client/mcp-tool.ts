import type { CallToolResult, Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js';
import { CancelledError, ToolExecutionError } from '../../errors/cadre-error.js';
import type { JsonSchema } from '../../model/types.js';
import { defineTool, type Tool } from '../../tools/types.js';
import { mcpToolName } from '../mcp-tool-names.js';
import type { McpConnection } from './mcp-connection.js';

/** Most characters of one call's text returned to the model. */
const MAX_OUTPUT_CHARS = 50_000;

/**
 * One server's tool as a Cadre tool named `server__tool`. Only a tool the
 * server marks `readOnlyHint: true` (and not destructive) counts as
 * read-only; every other one is a side effect and asks for approval, since
 * an unmarked tool may change anything.
 */
export function mcpTool(server: string, listed: ListedTool, connection: McpConnection): Tool {
  const annotations = listed.annotations ?? {};
  const readOnly = annotations.readOnlyHint === true && annotations.destructiveHint !== true;
  const title = annotations.title ?? listed.title;
  return defineTool<Record<string, unknown>>({
    name: mcpToolName(server, listed.name),
    description: listed.description?.trim() || title || `${listed.name} (MCP server ${server})`,
    inputSchema: listed.inputSchema as JsonSchema,
    sideEffect: !readOnly,
    ...(readOnly ? {} : { defaultApproval: 'require' as const }),
    preview: (args) => `${server}: ${listed.name}(${previewArgs(args)})`,
    async execute(args, ctx) {
      let result: CallToolResult;
      try {
        result = (await connection.client.callTool(
          { name: listed.name, arguments: args },
          undefined,
          {
            signal: ctx.signal,
            timeout: connection.callTimeoutMs,
          },
        )) as CallToolResult;
      } catch (error) {
        if (ctx.signal.aborted) throw new CancelledError('The tool call was cancelled.');
        throw new ToolExecutionError(
          `MCP server "${server}" failed on ${listed.name}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const text = textOf(result);
      // The server's own failure goes back to the model so it can correct itself.
      if (result.isError) throw new ToolExecutionError(text || `${listed.name} failed.`);
      if (result.structuredContent !== undefined)
        return text ? { ...result.structuredContent, text } : result.structuredContent;
      return text;
    },
  });
}

/** Text parts as they are; other parts named so the model knows they were there. */
function textOf(result: CallToolResult): string {
  const parts = (result.content ?? []).map((part) => {
    switch (part.type) {
      case 'text':
        return part.text;
      case 'image':
      case 'audio':
        return `[${part.type}: ${part.mimeType}, ${Math.floor((part.data.length * 3) / 4)} bytes]`;
      case 'resource':
        return 'text' in part.resource
          ? `[resource ${part.resource.uri}]\n${String(part.resource.text)}`
          : `[resource ${part.resource.uri}]`;
      case 'resource_link':
        return `[resource link ${part.uri}${part.name ? ` (${part.name})` : ''}]`;
      default:
        return part satisfies never;
    }
  });
  const text = parts.join('\n');
  return text.length <= MAX_OUTPUT_CHARS
    ? text
    : `${text.slice(0, MAX_OUTPUT_CHARS)}\n[truncated: ${text.length - MAX_OUTPUT_CHARS} more characters]`;
}

function previewArgs(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text.length <= 160 ? text : `${text.slice(0, 159)}…`;
}
