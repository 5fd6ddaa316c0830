import { TaskState, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../model/scripted-model.js';
import type { ModelRequest } from '../model/types.js';
import { startAgentsTestServer, type AgentsTestServer } from '../server/http/real-test-server.js';
import { userMessage, writerModel } from '../server/http/routes/a2a-test-server.js';
import { remoteAnswer } from './remote-answer.js';

const TOKEN_VAR = 'CADRE_TEST_PEER_TOKEN';
const saved = process.env[TOKEN_VAR];

/** The remote Cadre: one agent, behind its bearer token. */
let peer: AgentsTestServer<'ann'>;
/** The Cadre that calls it: `boss` delegates to `weather`, an ADK RemoteA2aAgent naming the peer. */
let home: AgentsTestServer<'ann'>;

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
    return {
      parts: [
        {
          functionCall: {
            name: 'weather',
            args: { prompt: prompt?.kind === 'text' ? prompt.text : '' },
          },
        },
      ],
    };
  });

beforeAll(async () => {
  peer = await startAgentsTestServer({
    prefix: 'cadre-peer-',
    agents: {
      greeter: 'name: greeter\ndescription: Greets you.\npromptConfig:\n  systemPrompt: Greet.\n',
    },
    users: ['ann'],
    run: { modelClient: writerModel() },
  });
  process.env[TOKEN_VAR] = peer.users.ann.token;
  // The agent's URL as people copy it: no card path, no trailing slash.
  home = await startAgentsTestServer({
    prefix: 'cadre-home-',
    agents: {
      boss: 'name: boss\ndescription: Delegates.\ntoolConfig:\n  tools: [weather]\npromptConfig:\n  systemPrompt: Delegate.\n',
      weather: `agent_class: RemoteA2aAgent\nname: weather\ndescription: Weather, from the peer.\nagent_card: ${peer.server.url}/a2a/greeter\nauth:\n  bearer_env: ${TOKEN_VAR}\n`,
    },
    users: ['ann'],
    run: { modelClient: delegating() },
  });
});
afterAll(async () => {
  if (saved === undefined) delete process.env[TOKEN_VAR];
  else process.env[TOKEN_VAR] = saved;
  await home.close();
  await peer.close();
});

/** The SDK client of `server`'s `agent`, with `token`. */
async function client(server: AgentsTestServer<'ann'>, agent: string): Promise<Client> {
  const token = server.users.ann.token;
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
    }),
  ).createFromUrl(`${server.server.url}/a2a/${agent}${server === peer ? '' : '/'}`);
}

const send = async (c: Client, text: string): Promise<Task> =>
  (await c.sendMessage({
    tenant: '',
    message: userMessage([
      { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' },
    ]),
    configuration: undefined,
    metadata: undefined,
  })) as Task;

describe('Cadre calling Cadre over A2A with a bearer token (two real servers, scripted models)', () => {
  it('the SDK client finds a one-agent server’s card from …/a2a/<agent> without a trailing slash', async () => {
    const c = await client(peer, 'greeter');
    const task = await send(c, 'direct');
    expect(remoteAnswer(task)).toMatchObject({ text: 'Hello! You said: direct' });
  });

  it('an A2A task on one server delegates to an agent of the other, which runs it as the token’s user', async () => {
    const c = await client(home, 'boss');
    const task = await send(c, 'rain in Oslo?');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(remoteAnswer(task).text).toContain('Hello! You said: rain in Oslo?');
    // The peer stored the run, as its own user Ann.
    const threads = await peer.service.listThreads(peer.users.ann.id);
    const seen = await Promise.all(
      threads.map((t) => peer.service.getThread(peer.users.ann.id, t.id)),
    );
    expect(seen.flatMap((t) => t?.messages.map((m) => m.content) ?? [])).toContain('rain in Oslo?');
  });

  it('without the token the peer refuses (401), and the calling agent hears so', async () => {
    process.env[TOKEN_VAR] = 'not-the-token';
    try {
      const task = await send(await client(home, 'boss'), 'snow?');
      expect(remoteAnswer(task).text).toMatch(/401/);
      expect(remoteAnswer(task).text).not.toContain('Hello! You said: snow?');
    } finally {
      process.env[TOKEN_VAR] = peer.users.ann.token;
    }
  });
});
