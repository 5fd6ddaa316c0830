import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as ServeAgent from '../../../a2a/serve/serve-agent.js';
import { CancelledError, NotFoundError } from '../../../errors/cadre-error.js';
import { lazyStreamBody } from '../lazy-stream-body.js';
import { requestTrace } from '../run-request.js';
import { optionalImport } from '../../../util/optional-import.js';
import type { AgentView } from '../../run-service-types.js';
import type { RouteContext } from './route-context.js';

/** The A2A SDK is an optional peer: only the first A2A request loads it, and a missing one is named. */
const loadServe = (): Promise<typeof ServeAgent> =>
  optionalImport(() => import('../../../a2a/serve/serve-agent.js'), {
    needs: 'Serving agents over A2A needs',
    packages: ['@a2a-js/sdk'],
  });

/**
 * The server's agents over A2A: a public card per agent (the default agent's
 * at `/.well-known/agent-card.json`, each one's at
 * `/a2a/<agent>/.well-known/agent-card.json`) and a JSON-RPC endpoint per
 * agent at `/a2a/<agent>`, behind the same bearer token as `/api`, speaking
 * A2A 1.0 and v0.3. A task is a run; see src/a2a/serve.
 */
export function a2aRoutes(app: FastifyInstance, { service, requestSignal }: RouteContext): void {
  const find = async (name?: string): Promise<AgentView> => {
    const agents = await service.listAgents();
    const agent =
      name === undefined
        ? (agents.find((a) => a.default) ?? agents[0])
        : agents.find((a) => a.name === name);
    if (!agent) throw new NotFoundError(name === undefined ? 'No agents.' : `No agent ${name}.`);
    return agent;
  };
  const rpcUrl = (request: FastifyRequest, agent: AgentView) =>
    `${request.protocol}://${request.host}/a2a/${encodeURIComponent(agent.name)}`;
  const card = async (request: FastifyRequest, reply: FastifyReply, name?: string) => {
    const agent = await find(name);
    const { agentCard, cardJson } = await loadServe();
    const version = request.headers['a2a-version'];
    // A 1.0 client (A2A-Version header) and a v0.3 one (none) are answered differently.
    void reply.header('vary', 'A2A-Version');
    return cardJson(
      agentCard(agent, rpcUrl(request, agent)),
      typeof version === 'string' ? version : undefined,
    );
  };

  app.get('/.well-known/agent-card.json', { config: { public: true } }, (request, reply) =>
    card(request, reply),
  );
  // `createFromUrl('…/a2a/<agent>')` (no trailing slash) resolves the card here, without the
  // agent's name. A server of one agent of its own (besides the built-in ones) leaves no doubt which;
  // with several, a guess could send the task to the wrong agent, so the answer says where the
  // cards are. The card names its agent and endpoint, so a client sees whom it talks to.
  app.get(
    '/a2a/.well-known/agent-card.json',
    { config: { public: true } },
    async (request, reply) => {
      const own = (await service.listAgents()).filter(
        (agent) => agent.origin !== 'default' && agent.origin !== 'builtin',
      );
      if (own.length === 1) return card(request, reply, own[0]?.name);
      throw new NotFoundError(
        'Several agents are served: name one with a trailing slash (…/a2a/<agent>/), or fetch …/a2a/<agent>/.well-known/agent-card.json.',
      );
    },
  );
  app.get<{ Params: { agent: string } }>(
    '/a2a/:agent/.well-known/agent-card.json',
    { config: { public: true } },
    (request, reply) => card(request, reply, request.params.agent),
  );
  // Its own scope: the body reaches the handler as sent, so a body that is not JSON is answered
  // the JSON-RPC way (-32700, HTTP 200) rather than with the API's 400.
  void app.register(async (rpc) => {
    rpc.removeAllContentTypeParsers();
    rpc.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    rpc.post<{ Params: { agent: string } }>('/a2a/:agent', async (request, reply) => {
      const agent = await find(request.params.agent);
      const { handleA2a, contentTypeRefused } = await loadServe();
      const refused = contentTypeRefused(request.headers['content-type']);
      if (refused) return refused;
      const version = request.headers['a2a-version'];
      const overflow = new AbortController();
      const answer = await handleA2a({
        service,
        agent,
        rpcUrl: rpcUrl(request, agent),
        userId: request.userId,
        userName: request.userName,
        body: request.body,
        ...(typeof version === 'string' ? { version } : {}),
        ...requestTrace(request.headers),
        signal: AbortSignal.any([requestSignal(reply), overflow.signal]),
      });
      if (answer.kind === 'json') return answer.body;
      // Streaming methods: server-sent events as the run goes; leaving detaches, the run goes on.
      const body = lazyStreamBody(reply, 'text/event-stream', () =>
        overflow.abort(new CancelledError('The client stopped reading the stream.')),
      );
      for await (const frame of answer.frames) body.write(frame);
      body.end();
      return reply;
    });
  });
}
