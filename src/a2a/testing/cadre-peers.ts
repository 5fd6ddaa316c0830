// Test-only: two real Cadre servers on loopback, the one ("home") calling the other ("peer") over A2A.
import type { Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { ScriptedModel } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import {
  startAgentsTestServer,
  type AgentsTestServer,
} from '../../server/http/testing/real-test-server.js';
import { userMessage, writerModel } from '../../server/http/routes/testing/a2a-test-server.js';

export interface CadrePeers {
  /** One agent of its own (`greeter`), behind its bearer token. */
  peer: AgentsTestServer<'ann'>;
  /** `boss` delegates to `weather`, an ADK RemoteA2aAgent naming the peer's greeter, with `auth: {bearer_env}`. */
  home: AgentsTestServer<'ann'>;
  close: () => Promise<void>;
}

const functionAnswer = (request: ModelRequest): string | undefined => {
  const part = request.messages.at(-1)?.parts.find((p) => p.kind === 'function_response');
  return part?.kind === 'function_response' ? JSON.stringify(part.response) : undefined;
};

/** Boss asks `weather` with the prompt it was given, then says what came back (scripted). */
const delegating = () =>
  new ScriptedModel((request) => {
    const answered = functionAnswer(request);
    if (answered) return { parts: [{ text: `Peer said: ${answered}` }] };
    const prompt = request.messages
      .flatMap((m) => m.parts)
      .find((p) => p.kind === 'text' && p.text.trim());
    const text = prompt?.kind === 'text' ? prompt.text : '';
    return { parts: [{ functionCall: { name: 'weather', args: { prompt: text } } }] };
  });

/**
 * Starts the peer, puts the token of its user Ann in `tokenVar` (the caller
 * restores it), and starts home naming the peer's agent by its URL as
 * people copy it: no card path, no trailing slash. `env(name)` adds to each
 * server's environment (`peer` or `home`).
 */
export async function startCadrePeers(options: {
  tokenVar: string;
  env?: (name: 'peer' | 'home') => NodeJS.ProcessEnv;
}): Promise<CadrePeers> {
  const peer = await startAgentsTestServer({
    prefix: 'cadre-peer-',
    agents: {
      greeter: 'name: greeter\ndescription: Greets you.\npromptConfig:\n  systemPrompt: Greet.\n',
    },
    users: ['ann'],
    run: { modelClient: writerModel(), ...(options.env ? { env: options.env('peer') } : {}) },
  });
  process.env[options.tokenVar] = peer.users.ann.token;
  const home = await startAgentsTestServer({
    prefix: 'cadre-home-',
    agents: {
      boss: 'name: boss\ndescription: Delegates.\ntoolConfig:\n  tools: [weather]\npromptConfig:\n  systemPrompt: Delegate.\n',
      weather: `agent_class: RemoteA2aAgent\nname: weather\ndescription: Weather, from the peer.\nagent_card: ${peer.server.url}/a2a/greeter\nauth:\n  bearer_env: ${options.tokenVar}\n`,
    },
    users: ['ann'],
    run: { modelClient: delegating(), ...(options.env ? { env: options.env('home') } : {}) },
  });
  return {
    peer,
    home,
    close: async () => {
      await home.close();
      await peer.close();
    },
  };
}

/**
 * The SDK client of `server`'s `agent` with its user's token (and `headers`
 * on every request), from the agent's URL (`slash`: with a trailing slash).
 */
export function peerClient(
  server: AgentsTestServer<'ann'>,
  agent: string,
  options: { slash?: boolean; headers?: Record<string, string> } = {},
): Promise<Client> {
  const token = server.users.ann.token;
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    for (const [key, value] of Object.entries(options.headers ?? {})) headers.set(key, value);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
    }),
  ).createFromUrl(`${server.server.url}/a2a/${agent}${options.slash ? '/' : ''}`);
}

export const sendText = async (c: Client, text: string): Promise<Task> =>
  (await c.sendMessage({
    tenant: '',
    message: userMessage([
      { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' },
    ]),
    configuration: undefined,
    metadata: undefined,
  })) as Task;
