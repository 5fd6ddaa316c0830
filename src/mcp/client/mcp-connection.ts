import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js';
import { optionalImport } from '../../util/optional-import.js';
import { expandVariables, missingVariables, type McpServerConfig } from '../mcp-server-config.js';

/** How long starting a server and listing its tools may take. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** One tool call's limit unless the server's config says otherwise. */
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
/** Most tool pages read from one server (a guard against a server that never stops paging). */
const MAX_PAGES = 50;
/** Kept from a stdio server's stderr, to say why it failed. */
const STDERR_TAIL = 2_000;

/** An optional peer: `npm install cadre` leaves it out. */
const MCP_SDK = { needs: 'MCP servers need', packages: ['@modelcontextprotocol/sdk'] };
const sdk = <T>(load: () => Promise<T>): Promise<T> => optionalImport(load, MCP_SDK);

/** A started server: its client and the tools it listed. */
export interface McpConnection {
  client: Client;
  tools: ListedTool[];
  callTimeoutMs: number;
  close(): Promise<void>;
}

export interface ConnectOptions {
  env: NodeJS.ProcessEnv;
  /** Where stdio servers start when their config names no `cwd`. */
  cwd: string;
  signal: AbortSignal;
}

/**
 * Starts one server (stdio child or remote session), initialises the MCP
 * session and lists every tool. The SDK loads only here, so a run that
 * uses no MCP server never pays for it.
 */
export async function connectServer(
  name: string,
  config: McpServerConfig,
  options: ConnectOptions,
): Promise<McpConnection> {
  const missing = missingVariables(config, options.env);
  if (missing.length > 0) throw new Error(`needs ${missing.join(', ')} set in the environment`);
  const { Client } = await sdk(() => import('@modelcontextprotocol/sdk/client/index.js'));
  const { transport, stderrTail } = await openTransport(config, options);
  const client = new Client({ name: 'cadre', version: '0.1.0' }, { capabilities: {} });
  const timeout = config.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  try {
    await client.connect(transport, { signal: options.signal, timeout });
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const listed = await client.listTools(cursor ? { cursor } : {}, {
        signal: options.signal,
        timeout,
      });
      tools.push(...listed.tools);
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return {
      client,
      tools,
      callTimeoutMs: config.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      close: () => client.close(),
    };
  } catch (error) {
    await client.close().catch(() => undefined);
    const tail = stderrTail().trim();
    throw new Error(`${messageOf(error)}${tail ? ` (stderr: ${tail})` : ''}`, { cause: error });
  }
}

async function openTransport(
  config: McpServerConfig,
  options: ConnectOptions,
): Promise<{ transport: Transport; stderrTail: () => string }> {
  const expand = (value: string) => expandVariables(value, options.env);
  switch (config.transport) {
    case 'stdio': {
      const { StdioClientTransport } = await sdk(
        () => import('@modelcontextprotocol/sdk/client/stdio.js'),
      );
      const transport = new StdioClientTransport({
        command: expand(config.command),
        args: config.args.map(expand),
        // The SDK adds only a safe base (PATH, HOME…): secrets reach a server only when listed.
        env: Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, expand(v)])),
        cwd: config.cwd ? expand(config.cwd) : options.cwd,
        stderr: 'pipe',
      });
      let tail = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      return { transport, stderrTail: () => tail };
    }
    case 'http':
    case 'sse': {
      const url = new URL(expand(config.url));
      const headers = Object.fromEntries(
        Object.entries(config.headers).map(([k, v]) => [k, expand(v)]),
      );
      if (config.transport === 'sse') {
        const { SSEClientTransport } = await sdk(
          () => import('@modelcontextprotocol/sdk/client/sse.js'),
        );
        return {
          transport: new SSEClientTransport(url, { requestInit: { headers } }),
          stderrTail: () => '',
        };
      }
      const { StreamableHTTPClientTransport } = await sdk(
        () => import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      );
      return {
        transport: new StreamableHTTPClientTransport(url, { requestInit: { headers } }),
        stderrTail: () => '',
      };
    }
    default:
      return config satisfies never;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
