import type { FastifyReply } from 'fastify';
import { CancelledError } from '../../errors/cadre-error.js';
import type { CadreEvent } from '../../events/types.js';
import type { RunHooks, RunResponse } from '../run-service-types.js';
import { mapError } from './error-mapping.js';
import { ndjsonWriter } from './ndjson.js';
import { lineForEvent, threadOf, type StreamLine } from './stream-lines.js';

export interface StreamRunOptions {
  reply: FastifyReply;
  /** Aborts on client disconnect and server shutdown: the stream detaches, the run goes on. */
  signal: AbortSignal;
  /** Starts the run (or the resume) with the stream's hooks. */
  start: (hooks: RunHooks) => Promise<RunResponse>;
}

/**
 * Streams a run as NDJSON: status first (when the first event names the
 * thread), then one line per event, then result or error. A failure before
 * any line is rethrown so it gets its proper status code.
 */
export async function streamRunNdjson(options: StreamRunOptions): Promise<void> {
  const { reply } = options;
  const overflow = new AbortController();
  const writer = ndjsonWriter(reply, () =>
    overflow.abort(new CancelledError('The client stopped reading the stream.')),
  );
  const send = (line: StreamLine) => writer.write(line);
  let status = false;
  const sendStatus = (threadId: string, runId: string) => {
    if (status) return;
    status = true;
    send({ type: 'status', status: 'planning', threadId, runId });
  };
  const onEvent = (event: CadreEvent) => {
    try {
      sendStatus(threadOf(event) ?? '', event.runId);
      send(lineForEvent(event));
    } catch (error) {
      // A line that cannot be written (say, data JSON cannot hold) must not break the run.
      reply.log.warn({ err: error, eventType: event.type }, 'stream line dropped');
    }
  };
  try {
    const result = await options.start({
      onEvent,
      onStarted: ({ threadId, runId }) => sendStatus(threadId, runId),
      signal: AbortSignal.any([options.signal, overflow.signal]),
    });
    sendStatus(result.threadId, result.runId);
    send({ type: 'result', result });
  } catch (error) {
    if (!writer.opened) throw error;
    const mapped = mapError(error);
    if (mapped.serverFault) reply.log.error({ err: error }, 'streamed run failed');
    send({ type: 'error', error: mapped.message, code: mapped.code });
  } finally {
    if (writer.opened) writer.end();
  }
}
