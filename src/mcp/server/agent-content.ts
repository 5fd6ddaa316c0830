import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type GetPromptResult,
  type Prompt,
  type PromptArgument,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { CadreError } from '../../errors/cadre-error.js';
import type { JsonSchema } from '../../model/types.js';

/** The agents as MCP prompts: the messages that would start each one. */
export interface AgentPromptSource {
  list(): Promise<Prompt[]>;
  /** Undefined when there is no prompt of that name. */
  get(name: string, args: Record<string, string>): Promise<GetPromptResult | undefined>;
}

/** What a client may read: agent definitions and, on the server, the caller's own runs. */
export interface AgentResourceSource {
  list(signal: AbortSignal): Promise<Resource[]>;
  templates: ResourceTemplate[];
  /** Undefined when there is no such resource for this caller (another user's run is not there). */
  read(uri: string, signal: AbortSignal): Promise<ReadResourceResult | undefined>;
}

export interface AgentContent {
  prompts?: AgentPromptSource;
  resources?: AgentResourceSource;
}

/** The spec's "resource not found" (not in the SDK's ErrorCode enum). */
const RESOURCE_NOT_FOUND = -32002;

const AGENT_URI_PREFIX = 'cadre://agents/';
const RUN_URI_PREFIX = 'cadre://runs/';

export const agentUri = (name: string): string => `${AGENT_URI_PREFIX}${encodeURIComponent(name)}`;

/** The name in `cadre://agents/<name>`, or undefined for any other URI. */
export function agentNameOf(uri: string): string | undefined {
  if (!uri.startsWith(AGENT_URI_PREFIX)) return undefined;
  return decodeSegment(uri.slice(AGENT_URI_PREFIX.length));
}

/** `cadre://runs/<id>` or `cadre://runs/<id>/trajectory`. */
export function runUriOf(uri: string): { runId: string; part: 'run' | 'trajectory' } | undefined {
  if (!uri.startsWith(RUN_URI_PREFIX)) return undefined;
  const [id, part, ...rest] = uri.slice(RUN_URI_PREFIX.length).split('/');
  const runId = id ? decodeSegment(id) : undefined;
  if (!runId || rest.length > 0) return undefined;
  if (part === undefined) return { runId, part: 'run' };
  return part === 'trajectory' ? { runId, part: 'trajectory' } : undefined;
}

function decodeSegment(segment: string): string | undefined {
  try {
    const decoded = decodeURIComponent(segment);
    return decoded && !decoded.includes('/') ? decoded : undefined;
  } catch {
    return undefined;
  }
}

/** Prompt arguments from an object schema's properties (MCP prompt arguments are strings). */
export function promptArguments(schema: JsonSchema): PromptArgument[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    required: required.has(name),
  }));
}

/**
 * Prompt arguments arrive as strings: those the schema types as something
 * else are read as JSON when they parse (`3`, `true`, `["a"]`), else kept as text.
 */
export function typedArguments(
  schema: JsonSchema,
  args: Record<string, string>,
): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.fromEntries(
    Object.entries(args).map(([name, value]) => {
      const type = properties[name]?.type;
      if (type === undefined || type === 'string') return [name, value];
      try {
        return [name, JSON.parse(value) as unknown];
      } catch {
        return [name, value];
      }
    }),
  );
}

/** Registers prompts and resources handlers for what the source offers. */
export function serveAgentContent(server: Server, content: AgentContent): void {
  const { prompts, resources } = content;
  if (prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({
      prompts: await prompts.list(),
    }));
    server.setRequestHandler(GetPromptRequestSchema, async (request) => {
      const result = await prompts
        .get(request.params.name, request.params.arguments ?? {})
        .catch((error: unknown) => {
          // A missing argument or placeholder: the caller can fix it.
          if (error instanceof CadreError)
            throw new McpError(ErrorCode.InvalidParams, error.message);
          throw error;
        });
      if (!result)
        throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
      return result;
    });
  }
  if (resources) {
    server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => ({
      resources: await resources.list(extra.signal),
    }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: resources.templates,
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      const result = await resources.read(request.params.uri, extra.signal);
      // The same answer whether the resource is someone else's or does not exist.
      if (!result)
        throw new McpError(RESOURCE_NOT_FOUND, 'Resource not found', { uri: request.params.uri });
      return result;
    });
  }
}
