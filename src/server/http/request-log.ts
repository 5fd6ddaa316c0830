import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Fastify's request lines, with the finished line carrying method and url (so
 * one line tells the whole request) and a 5xx at `warn`, so `--log-level warn`
 * keeps server faults and drops the ordinary traffic, 404s included.
 */
export class RequestLog extends LogController {
  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const fields = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else if (reply.statusCode >= 500) reply.log.warn(fields, 'request completed');
    else reply.log.info(fields, 'request completed');
  }
}
