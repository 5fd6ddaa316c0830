import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createAgentsMcpServer } from './agents-mcp-server.js';
import { serviceAgentContent } from './service-agent-content.js';
import { serviceAgentTools, type ServiceAgentsOptions } from './service-agent-tools.js';

export { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

/** One MCP session over streamable HTTP: its server and transport, for one user. */
export interface HttpMcpSession {
  server: Server;
  transport: StreamableHTTPServerTransport;
}

export interface HttpSessionOptions extends ServiceAgentsOptions {
  approvalTimeoutMs?: number;
  /** The transport gave the session its id (its `initialize` succeeded). */
  onInitialized: (sessionId: string) => void;
  /** The session ended (DELETE, or closed here); runs before calls in flight see their abort. */
  onClosed: () => void;
}

/** A connected MCP server over the run service's agents, with a stateful transport. */
export async function openHttpSession(options: HttpSessionOptions): Promise<HttpMcpSession> {
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: options.onInitialized,
  });
  const server = createAgentsMcpServer(serviceAgentTools(options), {
    ...(options.approvalTimeoutMs ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
    // Runs are read as this session's user: the service answers nothing of anyone else's.
    content: serviceAgentContent(options.service, options.userId),
  });
  // Set before connect: the server's own close handling (aborting calls in flight) comes after it.
  transport.onclose = options.onClosed;
  await server.connect(transport);
  return { server, transport };
}
