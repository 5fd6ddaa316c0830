import type { FastifyReply } from 'fastify';
import type { RunHooks, RunResponse } from '../../run-service-types.js';

/** One chat completion's run: how to start it, and what the answer needs to say about it. */
export interface ChatRun {
  reply: FastifyReply;
  /** Aborts on client disconnect and server shutdown: the request detaches, the run goes on. */
  signal: AbortSignal;
  /** The `model` the client asked for, echoed in every answer. */
  model: string;
  /** `http://host:port` as the client reached us: links to the run's page and the approval API. */
  baseUrl: string;
  includeUsage: boolean;
  /** Settings of the request the agent's definition decides instead, reported in `cadre.ignored`. */
  ignored?: string[];
  start: (hooks: RunHooks) => Promise<RunResponse>;
}
