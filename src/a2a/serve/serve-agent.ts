import { AgentCard } from '@a2a-js/sdk';
import {
  DefaultRequestHandler,
  JsonRpcTransportHandler,
  ServerCallContext,
  type User,
} from '@a2a-js/sdk/server';
import type { RunService } from '../../server/run-service-types.js';
import { runExecutor, SIGNAL_KEY } from './run-executor.js';
import { runTaskStore } from './run-task-store.js';

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
    capabilities: { streaming: false, pushNotifications: false },
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
  body: unknown;
  /** The A2A-Version header, when sent. */
  version?: string;
  signal: AbortSignal;
}

const user = (userId: string): User => ({ isAuthenticated: true, userName: userId });

/**
 * One JSON-RPC request through the SDK's own handler (DefaultRequestHandler
 * behind its JSON-RPC transport), so method names, validation and error
 * codes are the protocol's. Built per request: tasks live in the run store,
 * so nothing is kept here between requests.
 */
export async function handleA2a(call: A2aCall): Promise<unknown> {
  const handler = new DefaultRequestHandler(
    agentCard(call.agent, call.rpcUrl),
    runTaskStore(call.service, call.agent.name),
    runExecutor(call.service, call.agent.name),
  );
  const context = new ServerCallContext({
    user: user(call.userId),
    ...(call.version ? { requestedVersion: call.version } : {}),
    state: new Map<string, unknown>([[SIGNAL_KEY, call.signal]]),
  });
  const body =
    typeof call.body === 'object' && call.body !== null && !Array.isArray(call.body)
      ? (call.body as Record<string, unknown>)
      : String(call.body);
  const result = await new JsonRpcTransportHandler(handler).handle(body, context);
  if (!(Symbol.asyncIterator in result)) return result;
  // Streaming methods: the card says no streaming, so the first answer is the SDK's refusal.
  for await (const first of result) return first;
  return undefined;
}
