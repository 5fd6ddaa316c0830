import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  CallToolResult,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  ReadResourceResult,
  Tool as ListedTool,
} from '@modelcontextprotocol/sdk/types.js';
import { optionalImport } from '../../util/optional-import.js';
import {
  expandVariables,
  missingVariables,
  type McpServerConfig,
} from '../../definition/mcp-server-config.js';

/** How long starting a server and listing its tools may take. */
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** One tool call's limit unless the server's config says otherwise. */
const DEFAULT_CALL_TIMEOUT_MS = 120_000;
/** Most tool pages read from one server (a guard against a server that never stops paging). */
const MAX_PAGES = 50;
/** Kept from a stdio server's stderr, to say why it failed. */
const STDERR_TAIL = 2_000;
/** Lines of that tail shown in an error. */
const STDERR_LINES = 8;
/** A stdio server that crashed is started again this many times per run tree. */
const RESTARTS = 1;

/** An optional peer: `npm install cadre` leaves it out. */
const MCP_SDK = { needs: 'MCP servers need', packages: ['@modelcontextprotocol/sdk'] };
const sdk = <T>(load: () => Promise<T>): Promise<T> => optionalImport(load, MCP_SDK);

/**
 * What a server may ask of the agent whose tool call it is answering:
 * a model answer (sampling) or a person's decision (elicitation).
 */
export interface CallHost {
  sample?: (
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
  ) => Promise<CreateMessageResult>;
  elicit?: (params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
}

/** A started server: the tools it listed, and calls that survive one crash of a stdio server. */
export interface McpConnection {
  tools: ListedTool[];
  callTimeoutMs: number;
  /**
   * Calls a tool; `host` answers what the server asks while the call is
   * under way; `meta` goes in the request's `_meta` (the caller's trace context).
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    host: CallHost,
    options: RequestOptions,
    meta?: Record<string, string>,
  ): Promise<CallToolResult>;
  /** Reads one of the server's resources (a `resource_link` a tool answered with). */
  readResource(uri: string, options: RequestOptions): Promise<ReadResourceResult>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  env: NodeJS.ProcessEnv;
  /** The workspace: where stdio servers start when their config names no `cwd`, and the client's root. */
  cwd: string;
  signal: AbortSignal;
}

/** One running session with the server. */
interface Session {
  client: Client;
  stderrTail: () => string;
  closed: boolean;
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
  const timeout = config.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  // Calls under way, latest last: a server's request goes to the call it is answering.
  const calls: CallHost[] = [];
  const current = (): CallHost | undefined => calls.at(-1);
  let session = await startSession(config, options, current, timeout);
  let restarts = 0;
  let restarting: Promise<Session> | undefined;
  let closing = false;
  /** The session to call: a stdio server that crashed is started again, once, by the first call to need it. */
  const live = (): Promise<Session> => {
    if (!session.closed || closing) return Promise.resolve(session);
    if (restarting) return restarting;
    const stopped = session;
    if (config.transport !== 'stdio' || restarts >= RESTARTS)
      return Promise.reject(new Error(`the server has stopped${stderrOf(stopped)}`));
    restarts += 1;
    restarting = startSession(config, options, current, timeout)
      .then(
        async (started) => {
          // The run ended while the server was starting again: it must not outlive the run.
          if (closing) {
            await started.client.close().catch(() => undefined);
            throw new Error('the run has ended');
          }
          return (session = started);
        },
        (error: unknown) => {
          throw new Error(
            `the server stopped${stderrOf(stopped)}, and could not start again: ${messageOf(error)}`,
            { cause: error },
          );
        },
      )
      .finally(() => {
        restarting = undefined;
      });
    return restarting;
  };
  try {
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const listed = await session.client.listTools(cursor ? { cursor } : {}, {
        signal: options.signal,
        timeout,
      });
      tools.push(...listed.tools);
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return {
      tools,
      callTimeoutMs: config.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      async callTool(tool, args, host, requestOptions, meta) {
        const used = await live();
        calls.push(host);
        try {
          return (await used.client.callTool(
            {
              name: tool,
              arguments: args,
              ...(meta && Object.keys(meta).length > 0 ? { _meta: meta } : {}),
            },
            undefined,
            requestOptions,
          )) as CallToolResult;
        } catch (error) {
          if (used.closed && !closing && !requestOptions.signal?.aborted)
            throw new Error(`the server stopped during the call${stderrOf(used)}`, {
              cause: error,
            });
          throw error;
        } finally {
          calls.splice(calls.lastIndexOf(host), 1);
        }
      },
      async readResource(uri, requestOptions) {
        const used = await live();
        return (await used.client.readResource({ uri }, requestOptions)) as ReadResourceResult;
      },
      close: () => {
        closing = true;
        return session.client.close();
      },
    };
  } catch (error) {
    closing = true;
    await session.client.close().catch(() => undefined);
    throw new Error(`${messageOf(error)}${stderrOf(session)}`, { cause: error });
  }
}

/** Connects a client that declares the workspace as its root, sampling and (form) elicitation. */
async function startSession(
  config: McpServerConfig,
  options: ConnectOptions,
  current: () => CallHost | undefined,
  timeout: number,
): Promise<Session> {
  const [{ Client }, types] = await Promise.all([
    sdk(() => import('@modelcontextprotocol/sdk/client/index.js')),
    sdk(() => import('@modelcontextprotocol/sdk/types.js')),
  ]);
  const { transport, stderrTail } = await openTransport(config, options);
  const client = new Client(
    { name: 'cadre', version: '0.1.0' },
    { capabilities: { roots: { listChanged: false }, sampling: {}, elicitation: { form: {} } } },
  );
  const root = { uri: pathToFileURL(options.cwd).href, name: 'workspace' };
  client.setRequestHandler(types.ListRootsRequestSchema, () => ({ roots: [root] }));
  client.setRequestHandler(types.CreateMessageRequestSchema, (request, extra) => {
    const sample = current()?.sample;
    if (!sample)
      throw new types.McpError(
        types.ErrorCode.InvalidRequest,
        'Sampling is only answered while one of your tools is being called by an agent.',
      );
    return sample(request.params, extra.signal);
  });
  client.setRequestHandler(types.ElicitRequestSchema, (request, extra) => {
    const elicit = current()?.elicit;
    // Nobody to ask: declined, as a person who said no.
    return elicit ? elicit(request.params, extra.signal) : { action: 'decline' };
  });
  const session: Session = { client, stderrTail, closed: false };
  client.onclose = () => {
    session.closed = true;
  };
  try {
    await client.connect(transport, { signal: options.signal, timeout });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(`${messageOf(error)}${stderrOf(session)}`, { cause: error });
  }
  return session;
}

/** The last lines the server wrote on stderr, as a suffix for an error message. */
function stderrOf(session: Pick<Session, 'stderrTail'>): string {
  const lines = session.stderrTail().trim().split('\n').slice(-STDERR_LINES).join('\n');
  return lines ? ` (stderr: ${lines})` : '';
}

async function openTransport(
  config: McpServerConfig,
  options: Omit<ConnectOptions, 'signal'>,
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
