import { realClock, type Clock } from '../../util/clock.js';
import { isoTime } from '../../util/iso-time.js';
import { closedInput } from '../../events/known-events.js';
import type { CadreEvent, EventInput, EventSink, ExecutionContext } from '../../events/types.js';

/**
 * Stamps events of one run (and its subagents) with ids, time and one
 * sequence, and hands them to the listener. Listener errors never break a run.
 */
/** The sink of a run nobody listens to; callers may skip building messages for it. */
export const SILENT: EventSink = () => {};

export class RunEvents {
  private seq: number;

  constructor(
    readonly runId: string,
    private readonly listener?: (event: CadreEvent) => void,
    /** Where a resumed run's sequence continues from (the last stored seq). */
    afterSeq = 0,
    /** Stamps each event's time (the run's clock). */
    private readonly clock: Clock = realClock,
  ) {
    this.seq = afterSeq;
  }

  /**
   * Re-stamps an event made elsewhere (a worker thread's own run) into this
   * run's sequence, keeping where in the tree it happened.
   */
  forward(event: CadreEvent): void {
    this.sinkFor({
      executionId: event.executionId,
      ...(event.parentExecutionId ? { parentId: event.parentExecutionId } : {}),
      depth: event.depth,
      path: event.path,
    })(inputOf(event));
  }

  sinkFor(execution: ExecutionContext): EventSink {
    const listener = this.listener;
    if (!listener) return SILENT;
    return (given) => {
      const input = closedInput(given);
      const event = {
        ...(input.type === 'custom'
          ? { type: input.type, name: input.name }
          : { type: input.type }),
        message: input.message,
        timestamp: isoTime(this.clock.now()),
        data: input.data ?? {},
        runId: this.runId,
        executionId: execution.executionId,
        ...(execution.parentId ? { parentExecutionId: execution.parentId } : {}),
        depth: execution.depth,
        path: execution.path,
        seq: ++this.seq,
      } as CadreEvent;
      try {
        listener(event);
      } catch {
        // A faulty observer must not change how the agent runs.
      }
    };
  }
}

/** An event's emitter input again, to re-stamp it. */
const inputOf = (event: CadreEvent): EventInput =>
  event.type === 'custom'
    ? { type: 'custom', name: event.name, message: event.message, data: event.data }
    : ({ type: event.type, message: event.message, data: event.data } as EventInput);
