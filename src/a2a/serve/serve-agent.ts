import { AgentCard } from '@a2a-js/sdk';
import { JsonRpcTransportHandler, ServerCallContext, type User } from '@a2a-js/sdk/server';
import type { RunService } from '../../server/run-service-types.js';
import { SIGNAL_KEY, USER_NAME_KEY } from './run-executor.js';
import { RunRequestHandler } from './run-request-handler.js';

/** The agent a card describes: only its name and description go out. */
export interface ServedAgent {
  name: string;
  description: string;
}

/**
 * The public card: name, description, where to send JSON-RPC, and that a
 * bearer token is needed. Nothing else of the definition (tools, prompts,
 * examples) is published.
 */
export function agentCard(agent: ServedAgent, rpcUrl: string): AgentCard {
  return AgentCard.fromJSON({
    name: agent.name,
    description: agent.description,
    version: '1',
    supportedInterfaces: [{ url: rpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true, pushNotifications: false },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  });
}

export const cardJson = (card: AgentCard): unknown => AgentCard.toJSON(card);

export interface A2aCall {
  service: RunService;
  agent: ServedAgent;
  rpcUrl: string;
  /** The authenticated caller: tasks are their runs. */
  userId: string;
  /** Their name, for the audit trail of approvals they decide here. */
  userName?: string;
  body: unknown;
  /** The A2A-Version header, when sent. */
  version?: string;
  signal: AbortSignal;
}

const user = (userId: string): User => ({ isAuthenticated: true, userName: userId });

/** One JSON-RPC answer, or (streaming methods) server-sent events already framed. */
export type A2aAnswer =
  | { kind: 'json'; body: unknown }
  | { kind: 'events'; frames: AsyncIterable<string> };

type Envelope = { jsonrpc: '2.0'; id: unknown; error?: unknown };

const frame = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;

const errorEnvelope = (id: unknown, error: unknown): Envelope => ({
  jsonrpc: '2.0',
  id: id ?? null,
  error: JsonRpcTransportHandler.mapToJSONRPCError(error),
});

const requestId = (body: unknown): unknown =>
  typeof body === 'object' && body !== null && 'id' in body ? body.id : null;

/**
 * The events of a streaming method as SSE frames. The first is awaited
 * before anything is sent, so a refusal (unknown task, bad request) is a
 * plain JSON-RPC error; a failure later is an `error` event, as the SDK's
 * own server frames it.
 */
async function streamAnswer(events: AsyncIterable<unknown>, id: unknown): Promise<A2aAnswer> {
  const iterator = events[Symbol.asyncIterator]();
  let first: IteratorResult<unknown>;
  try {
    first = await iterator.next();
  } catch (error) {
    return { kind: 'json', body: errorEnvelope(id, error) };
  }
  async function* frames(): AsyncIterable<string> {
    try {
      if (first.done) return;
      yield frame(first.value);
      for (let next = await iterator.next(); !next.done; next = await iterator.next())
        yield frame(next.value);
    } catch (error) {
      yield `event: error\n${frame(errorEnvelope(id, error))}`;
    } finally {
      await iterator.return?.();
    }
  }
  return { kind: 'events', frames: frames() };
}

/**
 * One JSON-RPC request through the SDK's own handler (DefaultRequestHandler
 * behind its JSON-RPC transport, cancelling through the run service), so
 * method names, validation and error codes are the protocol's. Built per
 * request: tasks live in the run store, so nothing is kept here between
 * requests; a stream follows the run as it goes.
 */
export async function handleA2a(call: A2aCall): Promise<A2aAnswer> {
  const handler = new RunRequestHandler(
    agentCard(call.agent, call.rpcUrl),
    call.service,
    call.agent.name,
  );
  const context = new ServerCallContext({
    user: user(call.userId),
    ...(call.version ? { requestedVersion: call.version } : {}),
    state: new Map<string, unknown>([
      [SIGNAL_KEY, call.signal],
      [USER_NAME_KEY, call.userName ?? ''],
    ]),
  });
  const body =
    typeof call.body === 'object' && call.body !== null && !Array.isArray(call.body)
      ? (call.body as Record<string, unknown>)
      : String(call.body);
  const result = await new JsonRpcTransportHandler(handler).handle(body, context);
  if (!(Symbol.asyncIterator in result)) return { kind: 'json', body: result };
  return streamAnswer(result, requestId(call.body));
}
