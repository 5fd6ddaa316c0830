import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard, Role, TaskState, type Message } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
  type AgentExecutor,
} from '@a2a-js/sdk/server';

/** How the scripted remote agent answers a text: a finished answer, or a question back. */
export type ScriptedReply = { state: 'completed' | 'input-required'; text: string };

/**
 * Which protocol the server speaks, and which its card claims: `1.0`; `0.3`
 * (a v0.3 card: `protocolVersion`, `url`, `preferredTransport`; v0.3 method
 * names only, as python a2a-sdk 0.3 and older JS servers); `0.3 behind a
 * 1.0 card` (a card claiming 1.0 in front of a v0.3-only server); or `1.0
 * behind an unversioned card` (its interface names no protocol version).
 */
export type TestProtocol =
  '1.0' | '0.3' | '0.3 behind a 1.0 card' | '1.0 behind an unversioned card';

export interface SdkTestServer {
  cardUrl: string;
  /** Texts the agent was sent, in order. */
  received: string[];
  /** The JSON-RPC method names it was called with, in order. */
  methods: string[];
  /** Each request's path and auth headers (`authorization`, `x-api-key`), in order. */
  requests: { path: string; authorization?: string; apiKey?: string }[];
  close: () => Promise<void>;
}

const agentMessage = (text: string, taskId: string, contextId: string): Message => ({
  ...emptyMessage(),
  messageId: `m-${taskId}`,
  taskId,
  contextId,
  parts: [
    {
      content: { $case: 'text', value: text },
      metadata: undefined,
      filename: '',
      mediaType: 'text/plain',
    },
  ],
});

const emptyMessage = (): Message => ({
  messageId: '',
  contextId: '',
  taskId: '',
  role: Role.ROLE_AGENT,
  parts: [],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

/**
 * The A2A SDK's own server (DefaultRequestHandler behind its JSON-RPC
 * transport handler, or its v0.3 one) on 127.0.0.1, with a scripted
 * executor: tests of the client talk to the real protocol implementation,
 * not a fake of it.
 */
export async function startSdkTestServer(
  reply: (text: string) => ScriptedReply,
  protocol: TestProtocol = '1.0',
  /** Where the card says JSON-RPC is (another server's base URL); default: this server. */
  rpcBase?: string,
): Promise<SdkTestServer> {
  const received: string[] = [];
  const methods: string[] = [];
  const requests: SdkTestServer['requests'] = [];
  const executor: AgentExecutor = {
    execute: (context, bus) => {
      const text = context.userMessage.parts
        .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
        .join('');
      received.push(text);
      const answer = reply(text);
      const { taskId, contextId } = context;
      const done = answer.state === 'completed';
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: {
            state: done ? TaskState.TASK_STATE_COMPLETED : TaskState.TASK_STATE_INPUT_REQUIRED,
            message: done ? undefined : agentMessage(answer.text, taskId, contextId),
            timestamp: new Date().toISOString(),
          },
          artifacts: done
            ? [
                {
                  artifactId: 'answer',
                  name: 'answer',
                  description: '',
                  parts: [
                    {
                      content: { $case: 'text', value: answer.text },
                      metadata: undefined,
                      filename: '',
                      mediaType: 'text/plain',
                    },
                  ],
                  metadata: undefined,
                  extensions: [],
                },
              ]
            : [],
          history: [],
          metadata: undefined,
        }),
      );
      bus.finished();
      return Promise.resolve();
    },
    cancelTask: () => Promise.resolve(),
  };
  let base = '';
  const card = (): AgentCard =>
    AgentCard.fromJSON({
      name: 'scripted-remote',
      description: 'A scripted A2A agent for tests.',
      version: '1.0.0',
      supportedInterfaces: [
        { url: `${rpcBase ?? base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
      capabilities: { streaming: false },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    });
  /** The card in v0.3's own shape, as a v0.3 server publishes it. */
  const legacyCard = () => ({
    name: 'scripted-remote',
    description: 'A scripted A2A v0.3 agent for tests.',
    version: '1.0.0',
    protocolVersion: '0.3.0',
    url: `${base}/rpc`,
    preferredTransport: 'JSONRPC',
    capabilities: { streaming: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  });
  const publishedCard = (): unknown => {
    if (protocol === '0.3') return legacyCard();
    const json = AgentCard.toJSON(card()) as { supportedInterfaces: Record<string, unknown>[] };
    if (protocol !== '1.0 behind an unversioned card') return json;
    return {
      ...json,
      supportedInterfaces: json.supportedInterfaces.map((i) => ({ ...i, protocolVersion: '' })),
    };
  };
  const handler = () => new DefaultRequestHandler(card(), new InMemoryTaskStore(), executor);
  let rpc: JsonRpcTransportHandler | LegacyJsonRpcTransportHandler | undefined;
  const server: Server = createServer((request, response) => {
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const authorization = header('authorization');
    const apiKey = header('x-api-key');
    requests.push({
      path: request.url ?? '',
      ...(authorization ? { authorization } : {}),
      ...(apiKey ? { apiKey } : {}),
    });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        if (request.method === 'GET' && request.url === '/.well-known/agent-card.json') {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(publishedCard()));
          return;
        }
        // A v0.3-only server answers 1.0 names with "method not found", as the SDK's v0.3 handler does.
        rpc ??=
          protocol === '1.0' || protocol === '1.0 behind an unversioned card'
            ? new JsonRpcTransportHandler(handler())
            : new LegacyJsonRpcTransportHandler(handler());
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        methods.push(String(body.method));
        const result = await rpc.handle(body, new ServerCallContext());
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(result));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    cardUrl: `${base}/.well-known/agent-card.json`,
    received,
    methods,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
