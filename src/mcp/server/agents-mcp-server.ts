import { traceCarrierOf } from '../../contracts/trace-carrier.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject, type AgentToolSource, type ToolCallContext } from './agent-tools.js';
import { approvalElicitation, readApprovalAnswer } from './approval-question.js';
import { serveAgentContent, type AgentContent } from './agent-content.js';
import { localAgentContent } from './local-agent-content.js';
import { localAgentTools, type LocalAgentsOptions } from './local-agent-tools.js';

export interface AgentsMcpServerOptions {
  /** How long a person may take to answer an approval question (default 10 minutes). */
  approvalTimeoutMs?: number;
  /** Shown to clients in `initialize`. */
  instructions?: string;
  /** Prompts and resources besides the tools (agents as prompts, definitions, runs). */
  content?: AgentContent;
}

const DEFAULT_APPROVAL_TIMEOUT_MS = 10 * 60_000;

const VERSION = '0.1.0';

/**
 * An MCP server whose tools are agents: `tools/list` names each with its
 * input schema, `tools/call` runs it and answers its final message (and its
 * structured output). Approvals inside a run are asked of the client by
 * elicitation when it declared that capability.
 */
export function createAgentsMcpServer(
  source: AgentToolSource,
  options: AgentsMcpServerOptions = {},
): Server {
  const server = new Server(
    { name: 'cadre', version: VERSION },
    {
      capabilities: {
        tools: {},
        ...(options.content?.prompts ? { prompts: {} } : {}),
        ...(options.content?.resources ? { resources: {} } : {}),
      },
      instructions:
        options.instructions ??
        'Each tool runs a Cadre agent to the end and answers with its final message. ' +
          'Side-effecting steps inside a run wait for a person: this client is asked when it supports elicitation.',
    },
  );
  const timeout = options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  if (options.content) serveAgentContent(server, options.content);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await source.list()).map((tool): Tool => ({
      name: tool.name,
      description: tool.description,
      ...(tool.title ? { title: tool.title } : {}),
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    if (!isPlainObject(args))
      throw new McpError(ErrorCode.InvalidParams, 'Tool arguments must be an object.');
    const progressToken = extra._meta?.progressToken;
    let step = 0;
    const canAsk = server.getClientCapabilities()?.elicitation?.form !== undefined;
    // Over HTTP the headers carry it; `_meta.traceparent` is how a stdio client can.
    const meta = request.params._meta as Record<string, unknown> | undefined;
    const trace =
      traceCarrierOf(extra.requestInfo?.headers ?? {}) ??
      traceCarrierOf({
        traceparent: typeof meta?.traceparent === 'string' ? meta.traceparent : undefined,
        tracestate: typeof meta?.tracestate === 'string' ? meta.tracestate : undefined,
      });
    const context: ToolCallContext = {
      signal: extra.signal,
      ...(trace ? { trace } : {}),
      progress: (message) => {
        if (progressToken === undefined || extra.signal.aborted) return;
        // Progress is best effort: a notification that cannot be sent must not stop the run.
        extra
          .sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: ++step, message },
          })
          .catch(() => {});
      },
      ...(canAsk
        ? {
            ask: async (question, signal) => {
              try {
                const answer = await server.elicitInput(approvalElicitation(question), {
                  // Over streamable HTTP the question travels on this call's own response stream.
                  relatedRequestId: extra.requestId,
                  signal,
                  timeout,
                });
                return readApprovalAnswer(answer);
              } catch (error) {
                signal.throwIfAborted();
                return {
                  kind: 'undecided',
                  why: `the question could not be asked or answered (${error instanceof Error ? error.message : String(error)})`,
                };
              }
            },
          }
        : {}),
    };
    const result = await source.call(name, args, context);
    if (!result) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    return result;
  });
  return server;
}

/** An MCP server over the agents of a registry, run in this process (`cadre mcp`). */
export function agentsMcpServer(options: LocalAgentsOptions & AgentsMcpServerOptions): Server {
  return createAgentsMcpServer(localAgentTools(options), {
    ...options,
    content: options.content ?? localAgentContent(options.agents, options.workspace),
  });
}
