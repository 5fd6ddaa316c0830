import { AgentCard } from '@a2a-js/sdk';
import {
  A2A_LEGACY_PROTOCOL_VERSION,
  duplicateInterfacesForLegacy,
  isLegacyJsonRpcMethod,
} from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { JsonRpcTransportHandler, ServerCallContext, type User } from '@a2a-js/sdk/server';
import type { TraceCarrier } from '../../contracts/trace-carrier.js';
import type { RunService } from '../../server/run-service-types.js';
import { agentSkill, type SkillSource } from './agent-skill.js';
import { parseJsonRpcBody } from './json-rpc-body.js';
export { contentTypeRefused } from './json-rpc-body.js';
import { withLegacyFields } from './legacy-card.js';
import { SIGNAL_KEY, TRACE_KEY, USER_NAME_KEY } from './run-executor.js';
import { RunRequestHandler } from './run-request-handler.js';

/** The agent a card describes: what the server lists of it anyway (name, description, examples, inputs). */
export type ServedAgent = SkillSource;

/**
 * The public card: name, description, one skill (the agent: its
 * description, examples and inputs), where to send JSON-RPC, and that a
 * bearer token is needed. Nothing else of the definition (tools, prompts)
 * is published. The endpoint speaks 1.0 and v0.3, so both are
 * listed (1.0 first, which 1.0 clients pick).
 */
export function agentCard(agent: ServedAgent, rpcUrl: string): AgentCard {
  return AgentCard.fromJSON({
    name: agent.name,
    description: agent.description,
    version: '1',
    supportedInterfaces: duplicateInterfacesForLegacy(
      [{ url: rpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }],
      ['JSONRPC'],
    ),
    capabilities: { streaming: true, pushNotifications: false },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [agentSkill(agent)],
  });
}

/**
 * The card as served. A 1.0 client says so in its A2A-Version header and
 * gets the 1.0 JSON alone, read as before; a request without one (every
 * v0.3 client) or naming 0.x gets the same JSON with the v0.3 fields beside
 * it, as the SDK's own server answers such requests with a v0.3 card.
 */
export function cardJson(card: AgentCard, requestedVersion?: string): unknown {
  const json = AgentCard.toJSON(card) as Record<string, unknown>;
  if (requestedVersion !== undefined && !isLegacyVersion(requestedVersion)) return json;
  return withLegacyFields(json, card.supportedInterfaces[0]?.url ?? '');
}

/** `0.3`, `0.3.0` (and any `0.x`): the v0.3 card; `1.0` and later: the 1.0 card. */
const isLegacyVersion = (version: string): boolean => /^\s*0(\.|\s*$)/.test(version);

export interface A2aCall {
  service: RunService;
  agent: ServedAgent;
  rpcUrl: string;
  /** The authenticated caller: tasks are their runs. */
  userId: string;
  /** Their name, for the audit trail of approvals they decide here. */
  userName?: string;
  /** The body as sent (a string), or already parsed. */
  body: unknown;
  /** The A2A-Version header, when sent. */
  version?: string;
  /** The request's trace context: runs it starts continue that trace. */
  trace?: TraceCarrier;
  signal: AbortSignal;
}

const user = (userId: string): User => ({ isAuthenticated: true, userName: userId });

/** One JSON-RPC answer, or (streaming methods) server-sent events already framed. */
export type A2aAnswer =
  { kind: 'json'; body: unknown } | { kind: 'events'; frames: AsyncIterable<string> };

type Envelope = { jsonrpc: '2.0'; id: unknown; error?: unknown };

const frame = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;

/** Which protocol a request speaks: the method name tells (v0.3's `message/send` or 1.0's `SendMessage`). */
type Dialect = 'v1' | 'v0.3';

const errorEnvelope = (id: unknown, error: unknown, dialect: Dialect): Envelope => ({
  jsonrpc: '2.0',
  id: id ?? null,
  error:
    dialect === 'v0.3'
      ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error)
      : JsonRpcTransportHandler.mapToJSONRPCError(error),
});

const requestId = (body: unknown): unknown =>
  typeof body === 'object' && body !== null && 'id' in body ? body.id : null;

const dialectOf = (body: unknown): Dialect =>
  typeof body === 'object' &&
  body !== null &&
  'method' in body &&
  isLegacyJsonRpcMethod(body.method)
    ? 'v0.3'
    : 'v1';

/**
 * The events of a streaming method as SSE frames. The first is awaited
 * before anything is sent, so a refusal (unknown task, bad request) is a
 * plain JSON-RPC error; a failure later is an `error` event, as the SDK's
 * own server frames it.
 */
async function streamAnswer(
  events: AsyncIterable<unknown>,
  id: unknown,
  dialect: Dialect,
): Promise<A2aAnswer> {
  const iterator = events[Symbol.asyncIterator]();
  let first: IteratorResult<unknown>;
  try {
    first = await iterator.next();
  } catch (error) {
    return { kind: 'json', body: errorEnvelope(id, error, dialect) };
  }
  async function* frames(): AsyncIterable<string> {
    try {
      if (first.done) return;
      yield frame(first.value);
      for (let next = await iterator.next(); !next.done; next = await iterator.next())
        yield frame(next.value);
    } catch (error) {
      yield `event: error\n${frame(errorEnvelope(id, error, dialect))}`;
    } finally {
      await iterator.return?.();
    }
  }
  return { kind: 'events', frames: frames() };
}

/**
 * One JSON-RPC request through the SDK's own handler (DefaultRequestHandler
 * behind its JSON-RPC transport, cancelling through the run service), so
 * method names, validation and error codes are the protocol's. A v0.3
 * method (`message/send`, `message/stream`, `tasks/get`, `tasks/cancel`,
 * `tasks/resubscribe`) goes through the SDK's v0.3 transport instead, which
 * translates to and from the same handler: one set of runs, two spellings.
 * The method name decides rather than the A2A-Version header, since v0.3
 * clients send none. Built per request: tasks live in the run store, so
 * nothing is kept here between requests; a stream follows the run as it goes.
 */
export async function handleA2a(call: A2aCall): Promise<A2aAnswer> {
  const parsed = parseJsonRpcBody(call.body);
  if (parsed.kind === 'error') return { kind: 'json', body: parsed.envelope };
  const handler = new RunRequestHandler(
    agentCard(call.agent, call.rpcUrl),
    call.service,
    call.agent.name,
    (call.agent.inputs ?? []).length > 0,
  );
  const dialect = dialectOf(parsed.request);
  const version = call.version ?? (dialect === 'v0.3' ? A2A_LEGACY_PROTOCOL_VERSION : undefined);
  const context = new ServerCallContext({
    user: user(call.userId),
    ...(version ? { requestedVersion: version } : {}),
    state: new Map<string, unknown>([
      [SIGNAL_KEY, call.signal],
      [USER_NAME_KEY, call.userName ?? ''],
      ...(call.trace ? [[TRACE_KEY, call.trace] as const] : []),
    ]),
  });
  const body = parsed.request;
  const result =
    dialect === 'v0.3'
      ? await new LegacyJsonRpcTransportHandler(handler).handle(body, context)
      : await new JsonRpcTransportHandler(handler).handle(body, context);
  if (!(Symbol.asyncIterator in result)) return { kind: 'json', body: result };
  return streamAnswer(result, requestId(body), dialect);
}
