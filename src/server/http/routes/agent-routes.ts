import type { FastifyInstance } from 'fastify';
import type { RouteContext } from './route-context.js';

/** The agents a run may name in `agent`. */
export function agentRoutes(app: FastifyInstance, { service }: RouteContext): void {
  app.get('/api/agents', async () => ({ ok: true, agents: await service.listAgents() }));
}
