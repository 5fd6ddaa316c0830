import type { TraceCarrier } from '../contracts/trace-carrier.js';
import type { CadreEvent } from '../events/types.js';

export type EventListener = (event: CadreEvent) => void;

export interface ObserveOptions {
  /** `gen_ai.conversation.id` for every span of the run (a server thread, a chat session). */
  conversationId?: string;
  /** The caller's trace context (an incoming `traceparent`): the run's root span continues it. */
  parent?: TraceCarrier;
}

/** A run's traced listener, and the trace context each of its executions' outgoing calls carry. */
export interface ObservedRun {
  onEvent: EventListener;
  carrier: (executionId: string) => TraceCarrier | undefined;
}

/**
 * Traces runs from their event stream: one `invoke_agent` span per
 * execution, `chat` spans per model call, `execute_tool` spans per call.
 */
export interface Telemetry {
  /** Wraps a run's listener (or none) so its events also become spans; the listener still gets every event. */
  observe(onEvent?: EventListener, options?: ObserveOptions): EventListener;
  /** As `observe`, with the trace context to put on the run's outgoing calls. */
  observeRun(onEvent?: EventListener, options?: ObserveOptions): ObservedRun;
  /** Exports the spans that have ended so far. Never throws. */
  flush(): Promise<void>;
  /**
   * Ends spans still open (marked `cadre.incomplete`), exports everything and
   * stops the exporter; gives up waiting when `signal` fires. Never throws.
   */
  shutdown(signal?: AbortSignal): Promise<void>;
}
