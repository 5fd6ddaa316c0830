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
}

export const TRACER_NAME = 'cadre';

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
  return {
    observe(onEvent, observeOptions = {}) {
      const tracker = new EventTracer(tracer, { captureContent, ...observeOptions });
      return (event) => {
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
      };
    },
    flush: () => settle(() => provider.forceFlush?.()),
    async shutdown(signal) {
      if (stopped) return;
      stopped = true;
      for (const tracker of busy) tracker.endAll();
      busy.clear();
      await settle(async () => {
        await provider.forceFlush?.();
        await provider.shutdown?.();
      }, signal);
    },
  };
}

/** Waits for the work, or until `signal` fires; swallows its failure (telemetry never fails a command). */
async function settle(work: () => Promise<void> | undefined, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return;
  let stopWaiting = (): void => {};
  const gaveUp = new Promise<void>((resolve) => {
    stopWaiting = resolve;
    signal?.addEventListener('abort', stopWaiting, { once: true });
  });
  try {
    await Promise.race([Promise.resolve(work()).catch(() => undefined), gaveUp]);
  } finally {
    signal?.removeEventListener('abort', stopWaiting);
  }
}
