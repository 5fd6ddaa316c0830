import { CancelledError } from '../../../errors/cadre-error.js';
import type { RunResponse } from '../../run-service-types.js';
import { mapError, type MappedError } from '../error-mapping.js';
import { threadOf } from '../stream-lines.js';
import type { ChatRun } from './chat-run.js';
import type { CadreIds } from './completion-shapes.js';
import { failedRun, type FailedRunBody } from './failed-run.js';
import { settledReply, streamTail, type SettledReply } from './run-outcome.js';
import { runTally, type RunTally } from './run-tally.js';
import { THREAD_HEADER } from './thread-header.js';

/** How the run ended or paused, for a stream's closing events. */
export interface StreamEnd {
  response: RunResponse;
  outcome: SettledReply;
  /** What the streamed text did not say (a pause, a structured answer): not sent yet. */
  tail: string;
  tally: RunTally;
}

/** One OpenAI stream's own events; `streamOpenAiRun` decides when each is written. */
export interface RunStreamEvents<Head> {
  /** True once the 200 is on its way: failures after it are events, not statuses. */
  readonly opened: boolean;
  /** The opening events, once the run's ids are known; called once. */
  open(ids: CadreIds): Head;
  /** A piece of the top-level agent's text. */
  text(head: Head, text: string): void;
  finish(head: Head, end: StreamEnd): void;
  /** The run failed or was cancelled after the stream opened: an error event, then the end. */
  failed(body: FailedRunBody): void;
  /** Something threw after the stream opened: an error event, then the end. */
  error(mapped: MappedError): void;
}

export type StreamedRun = Pick<ChatRun, 'reply' | 'signal' | 'baseUrl' | 'start' | 'ignored'>;

/**
 * Streams a run through one OpenAI stream format: the opening events once
 * the run exists (its thread in the `x-cadre-thread-id` header), the
 * top-level agent's text as it comes, then the closing events. A failure
 * before anything was sent is answered with its status code instead; after,
 * it is an error event, which OpenAI's SDKs raise. A client that reads too
 * slowly detaches: the run goes on.
 */
export async function streamOpenAiRun<Head>(
  run: StreamedRun,
  what: string,
  events: (onOverflow: () => void) => RunStreamEvents<Head>,
): Promise<void> {
  const overflow = new AbortController();
  const out = events(() =>
    overflow.abort(new CancelledError('The client stopped reading the stream.')),
  );
  let head: Head | undefined;
  const begin = (ids: CadreIds): Head => {
    if (head) return head;
    // Headers leave with the first event: the thread a next request continues.
    if (ids.threadId) void run.reply.header(THREAD_HEADER, ids.threadId);
    head = out.open(ids);
    return head;
  };
  const tally = runTally((text) => {
    if (head) out.text(head, text);
  });
  try {
    const response = await run.start({
      signal: AbortSignal.any([run.signal, overflow.signal]),
      onStarted: begin,
      onEvent: (event) => {
        begin({ runId: event.runId, threadId: threadOf(event) ?? '' });
        tally.onEvent(event);
      },
    });
    const outcome = settledReply(response, run.baseUrl, run.ignored);
    if (response.status === 'failed' || response.status === 'cancelled') {
      const failed = failedRun(response, outcome.cadre);
      if (!out.opened) {
        void run.reply.header(THREAD_HEADER, response.threadId);
        void run.reply.headers(failed.headers);
        return void (await run.reply.status(failed.status).send(failed.body));
      }
      return out.failed(failed.body);
    }
    const last = begin({ runId: response.runId, threadId: response.threadId });
    const tail = streamTail(response, outcome, tally.streamed());
    out.finish(last, { response, outcome, tail, tally });
  } catch (error) {
    if (!out.opened) throw error;
    const mapped = mapError(error);
    if (mapped.serverFault) run.reply.log.error({ err: error }, `streamed ${what} failed`);
    // A client that left reads nothing; the write is dropped.
    out.error(mapped);
  }
}
