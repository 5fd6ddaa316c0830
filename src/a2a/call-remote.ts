import { randomUUID } from 'node:crypto';
import { Role, type AgentCard, type SendMessageRequest } from '@a2a-js/sdk';
import {
  Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type AgentCardResolver,
} from '@a2a-js/sdk/client';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransport } from '@a2a-js/sdk/compat/v0_3/client';
import { A2A_ERROR_CODE, isJsonRpcError } from '@a2a-js/sdk/errors';
import { remoteAnswer, type RemoteAnswer } from './remote-answer.js';

export interface RemoteCall {
  /** The agent card's full URL (Gemini CLI `agent_card_url`, ADK `agent_card`), or the agent's base URL. */
  agentCardUrl: string;
  text: string;
  signal: AbortSignal;
  /** Every request goes through this (auth headers, trace context); default: fetch. */
  fetchImpl?: typeof fetch;
}

/** Much of the deployed A2A world speaks v0.3: the SDK's compatibility layer reads its cards and speaks it. */
const legacyCompat = { enabled: true };

const request = (text: string): SendMessageRequest => ({
  tenant: '',
  message: {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [
      {
        content: { $case: 'text', value: text },
        metadata: undefined,
        filename: '',
        mediaType: 'text/plain',
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  },
  configuration: {
    acceptedOutputModes: [],
    taskPushNotificationConfig: undefined,
    returnImmediately: false,
  },
  metadata: undefined,
});

/** The server does not know the 1.0 method name: it speaks an older protocol. */
const methodNotFound = (error: unknown): boolean =>
  isJsonRpcError(error) && error.envelopeCode === A2A_ERROR_CODE.METHOD_NOT_FOUND;

const jsonRpcUrl = (card: AgentCard): string | undefined =>
  card.supportedInterfaces.find((i) => i.protocolBinding.toUpperCase() === 'JSONRPC')?.url;

/**
 * Sends one message to an A2A agent through the SDK's client: the card is
 * fetched from its URL (a v0.3 card, with `protocolVersion`, `url` and
 * `preferredTransport`, is read too), the SDK picks the transport it lists
 * (v0.3 JSON-RPC for a v0.3 interface: `message/send`), then the message
 * waits for the reply (blocking, so a task comes back finished or stopped,
 * not merely submitted). A server that answers with "method not found" is
 * asked again in the other protocol: a card claiming 1.0 in front of a
 * v0.3-only server, or an unversioned one in front of a 1.0 server.
 */
export async function callRemote(call: RemoteCall): Promise<RemoteAnswer> {
  const fetchImpl = call.fetchImpl ?? fetch;
  // The card the client was made from, kept for asking again in v0.3.
  const resolver = new DefaultAgentCardResolver({ legacyCompat, fetchImpl });
  let card: AgentCard | undefined;
  const remembering: AgentCardResolver = {
    resolve: async (baseUrl, path) => (card = await resolveCard(resolver, baseUrl, path)),
  };
  const client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [
        new JsonRpcTransportFactory({ legacyCompat, fetchImpl }),
        new RestTransportFactory({ legacyCompat, fetchImpl }),
      ],
      cardResolver: remembering,
    }),
  ).createFromUrl(call.agentCardUrl, '');
  const message = request(call.text);
  const options = { signal: call.signal };
  try {
    return remoteAnswer(await client.sendMessage(message, options));
  } catch (error) {
    const endpoint = card && jsonRpcUrl(card);
    if (!card || !endpoint || client.transport.protocolName !== 'JSONRPC' || !methodNotFound(error))
      throw error;
    const other = new Client(await otherDialect(client, endpoint, card, fetchImpl), card);
    return remoteAnswer(await other.sendMessage(message, options));
  }
}

/**
 * The JSON-RPC transport of the protocol the first call did not speak:
 * v0.3 after a 1.0 `SendMessage` went unknown, and 1.0 after a v0.3
 * `message/send` did (the SDK takes an interface with no version for v0.3).
 */
async function otherDialect(
  client: Client,
  endpoint: string,
  card: AgentCard,
  fetchImpl: typeof fetch,
) {
  return client.protocolVersion === A2A_LEGACY_PROTOCOL_VERSION
    ? new JsonRpcTransportFactory({ fetchImpl }).create(endpoint, card)
    : new LegacyJsonRpcTransport({ endpoint, fetchImpl });
}

/**
 * The card at the URL given; failing that, when the URL is not a card's
 * (`…/a2a/<agent>`, with or without a trailing slash), the card under it
 * at `.well-known/agent-card.json`, where A2A servers publish one.
 */
async function resolveCard(
  resolver: AgentCardResolver,
  url: string,
  path: string | undefined,
): Promise<AgentCard> {
  try {
    return await resolver.resolve(url, path);
  } catch (error) {
    if (path !== '' || /agent-card\.json$|agent\.json$/.test(new URL(url).pathname)) throw error;
    return resolver.resolve(url.endsWith('/') ? url : `${url}/`, '.well-known/agent-card.json');
  }
}
