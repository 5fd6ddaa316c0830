import type { CadreEvent } from '../events/types.js';

export type EventListener = (event: CadreEvent) => void;

export interface ObserveOptions {
  /** `gen_ai.conversation.id` for every span of the run (a server thread, a chat session). */
  conversationId?: string;
}

/**
 * Traces runs from their event stream: one `invoke_agent` span per
 * execution, `chat` spans per model call, `execute_tool` spans per call.
 */
export interface Telemetry {
  /** Wraps a run's listener (or none) so its events also become spans; the listener still gets every event. */
  observe(onEvent?: EventListener, options?: ObserveOptions): EventListener;
  /** Exports the spans that have ended so far. Never throws. */
  flush(): Promise<void>;
  /**
   * Ends spans still open (marked `cadre.incomplete`), exports everything and
   * stops the exporter; gives up waiting when `signal` fires. Never throws.
   */
  shutdown(signal?: AbortSignal): Promise<void>;
}
