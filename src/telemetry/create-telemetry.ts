import type { TracerProvider } from '@opentelemetry/api';
import { EventTracer } from './event-tracer.js';
import type { Telemetry } from './telemetry.js';

/** Any tracer provider; the SDK's can also flush and shut down. */
export interface TracingProvider extends TracerProvider {
  forceFlush?(): Promise<void>;
  shutdown?(): Promise<void>;
}

export interface TelemetryOptions {
  /** Record prompts, answers, tool arguments and results (default off). */
  captureContent?: boolean;
  /** The longest shutdown waits for the last export (default: as long as it takes). */
  shutdownTimeoutMillis?: number;
  /** Told once, at shutdown, when the last spans could not be sent (why, in words). */
  onLostSpans?: (reason: string) => void;
  /** Why the latest export failed, if it did (the exporter's own account). */
  lastExportFailure?: () => string | undefined;
}

const TRACER_NAME = 'cadre';

/**
 * Telemetry over a tracer provider the caller built (tests, an application
 * with its own OpenTelemetry set-up). Each observed listener traces its own
 * runs; tracing failures never reach the run or the listener.
 */
export function createTelemetry(
  provider: TracingProvider,
  options: TelemetryOptions = {},
): Telemetry {
  const tracer = provider.getTracer(TRACER_NAME);
  const captureContent = options.captureContent ?? false;
  // Tracers with spans open, so shutdown can end them.
  const busy = new Set<EventTracer>();
  let stopped = false;
  const observeRun: Telemetry['observeRun'] = (onEvent, observeOptions = {}) => {
    const tracker = new EventTracer(tracer, { captureContent, ...observeOptions });
    return {
      onEvent: (event) => {
        if (!stopped) {
          try {
            tracker.record(event);
            if (tracker.idle) busy.delete(tracker);
            else busy.add(tracker);
          } catch {
            // A tracing fault must not change what the run's listener sees.
          }
        }
        onEvent?.(event);
      },
      carrier: (executionId) => {
        try {
          return tracker.carrier(executionId);
        } catch {
          return undefined;
        }
      },
    };
  };
  return {
    observe: (onEvent, observeOptions) => observeRun(onEvent, observeOptions).onEvent,
    observeRun,
    flush: async () => void (await settle(() => provider.forceFlush?.())),
    async shutdown(signal) {
      if (stopped) return;
      stopped = true;
      for (const tracker of busy) tracker.endAll();
      busy.clear();
      const bound = options.shutdownTimeoutMillis;
      const timer = bound === undefined ? undefined : AbortSignal.timeout(bound);
      const finished = await settle(
        async () => {
          await provider.forceFlush?.();
          await provider.shutdown?.();
        },
        timer && signal ? AbortSignal.any([timer, signal]) : (timer ?? signal),
      );
      const reason =
        finished === 'gave_up' && timer?.aborted
          ? `no answer within ${bound} ms`
          : options.lastExportFailure?.();
      if (reason) options.onLostSpans?.(reason);
    },
  };
}

/** Waits for the work, or until `signal` fires; swallows its failure (telemetry never fails a command). */
async function settle(
  work: () => Promise<void> | undefined,
  signal?: AbortSignal,
): Promise<'done' | 'gave_up'> {
  if (signal?.aborted) return 'gave_up';
  let stopWaiting = (): void => {};
  const gaveUp = new Promise<'gave_up'>((resolve) => {
    stopWaiting = () => resolve('gave_up');
    signal?.addEventListener('abort', stopWaiting, { once: true });
  });
  try {
    return await Promise.race([
      Promise.resolve(work())
        .catch(() => undefined)
        .then(() => 'done' as const),
      gaveUp,
    ]);
  } finally {
    signal?.removeEventListener('abort', stopWaiting);
  }
}
