import { traceHeaders } from '../../contracts/trace-carrier.js';
import type { CallToolResult, Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js';
import { CancelledError, ToolExecutionError } from '../../errors/cadre-error.js';
import { describeArgs } from '../../runtime/calls/describe-args.js';
import type { InlineImage, JsonSchema } from '../../model/types.js';
import { ToolAnswer } from '../../tools/tool-answer.js';
import { defineTool, type Tool } from '../../tools/types.js';
import { canonicalJson } from '../../util/canonical-json.js';
import { mcpToolName } from '../../definition/mcp-tool-names.js';
import { elicitationHost } from './elicitation.js';
import type { CallHost, McpConnection } from './mcp-connection.js';
import { followResourceLinks } from './resource-links.js';
import { samplingHost } from './sampling.js';

/** At most this many images, and bytes of them, per answer go to the model (the rest are described). */
const MAX_IMAGES = 4;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * One server's tool as a Cadre tool named `server__tool`. Every one is a
 * side effect that asks for approval: annotations are the server's own
 * claims, so `readOnlyHint` makes a tool a read only when the project trusts
 * the server's hints (`trustHints`), and never for a tool also marked destructive.
 */
export function mcpTool(
  server: string,
  listed: ListedTool,
  connection: McpConnection,
  trustHints = false,
): Tool {
  const annotations = listed.annotations ?? {};
  const readOnly =
    trustHints && annotations.readOnlyHint === true && annotations.destructiveHint !== true;
  const title = annotations.title ?? listed.title;
  return defineTool<Record<string, unknown>>({
    name: mcpToolName(server, listed.name),
    description: listed.description?.trim() || title || `${listed.name} (MCP server ${server})`,
    inputSchema: listed.inputSchema as JsonSchema,
    sideEffect: !readOnly,
    ...(readOnly ? {} : { defaultApproval: 'require' as const }),
    // A server the project trusts may say a call can be repeated safely.
    ...(!readOnly && trustHints && annotations.idempotentHint === true
      ? { delivery: 'exactly-once' as const }
      : {}),
    preview: (args) => `${server}: ${listed.name}(${previewArgs(args)})`,
    async execute(args, ctx) {
      let result: CallToolResult;
      // What the server asks while it answers: this agent's model, this run's person.
      const host: CallHost = {
        ...(ctx.generate ? { sample: samplingHost(ctx.generate) } : {}),
        ...(ctx.confirm
          ? { elicit: elicitationHost(server, ctx.confirm, ctx, ctx.actionId ?? listed.name) }
          : {}),
      };
      try {
        result = await connection.callTool(
          listed.name,
          args,
          host,
          { signal: ctx.signal, timeout: connection.callTimeoutMs },
          // The run's trace context, where MCP carries it per call (stdio and HTTP alike).
          traceHeaders(ctx.traceCarrier?.()),
        );
      } catch (error) {
        if (ctx.signal.aborted) throw new CancelledError('The tool call was cancelled.');
        throw new ToolExecutionError(
          `MCP server "${server}" failed on ${listed.name}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      // The server's own failure goes back to the model so it can correct itself.
      if (result.isError)
        throw new ToolExecutionError(textOf(result.content) || `${listed.name} failed.`);
      // Links are read from the same server: the model cannot open a URI itself.
      const content = await followResourceLinks(
        result.content ?? [],
        (uri, signal) =>
          connection.readResource(uri, { signal, timeout: connection.callTimeoutMs }),
        ctx.signal,
      ).catch((error: unknown) => {
        throw ctx.signal.aborted ? new CancelledError('The tool call was cancelled.') : error;
      });
      // The answer is sent once (the call's answers are capped where they are built).
      const structured = result.structuredContent;
      const text = textOf(
        structured === undefined ? content : withoutCopiesOf(structured, content),
      );
      const output = structured === undefined ? text : text ? { ...structured, text } : structured;
      const images = imagesOf(result.content);
      return images.length > 0 ? new ToolAnswer(output, images) : output;
    },
  });
}

/**
 * The spec asks servers to put structured content's JSON in a text block as
 * well; such a copy is left out so the same data does not reach the model twice.
 */
function withoutCopiesOf(
  structured: Record<string, unknown>,
  content: CallToolResult['content'],
): CallToolResult['content'] {
  let canonical: string | undefined;
  return (content ?? []).filter((part) => {
    if (part.type !== 'text' || !/^\s*[[{]/.test(part.text)) return true;
    canonical ??= canonicalJson(structured);
    return parsedCanonical(part.text) !== canonical;
  });
}

function parsedCanonical(text: string): string | undefined {
  try {
    return canonicalJson(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** Images the model may see (the text names them all the same); larger ones stay a description. */
function imagesOf(content: CallToolResult['content'] = []): InlineImage[] {
  const images: InlineImage[] = [];
  let bytes = 0;
  for (const part of content) {
    if (part.type !== 'image' || !part.mimeType.startsWith('image/')) continue;
    const size = Math.floor((part.data.length * 3) / 4);
    if (images.length >= MAX_IMAGES || bytes + size > MAX_IMAGE_BYTES) break;
    bytes += size;
    images.push({ mimeType: part.mimeType, data: part.data });
  }
  return images;
}

/** Text parts as they are; other parts named so the model knows they were there. */
function textOf(content: CallToolResult['content'] = []): string {
  const parts = content.map((part) => {
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
  return parts.join('\n');
}

/** Strings as they are (not JSON escaped): the display escapes the preview once. */
function previewArgs(args: Record<string, unknown>): string {
  return describeArgs(args, 160);
}
