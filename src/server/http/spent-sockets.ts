import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Ends a socket once it has served `maxRequestsPerSocket` responses. Node
 * only announces `connection: close` on the last one and then leaves the
 * socket open until the keep-alive timeout, trusting the client to hang up;
 * a hostile one would not.
 */
export function closeSpentSockets(app: FastifyInstance, maxRequestsPerSocket: number): void {
  if (maxRequestsPerSocket <= 0) return;
  // Keyed weakly: a socket's count goes with the socket.
  const served = new WeakMap<Socket, number>();
  app.addHook('onResponse', (request, _reply, done) => {
    const socket = request.raw.socket;
    const count = (served.get(socket) ?? 0) + 1;
    served.set(socket, count);
    if (count >= maxRequestsPerSocket) socket.end();
    done();
  });
}
