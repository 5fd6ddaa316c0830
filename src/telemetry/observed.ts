import type { TraceCarrier } from '../contracts/trace-carrier.js';
import type { EventListener, ObserveOptions, Telemetry } from './telemetry.js';

/**
 * The listener a run gets (traced when telemetry is on, else the caller's
 * own, untouched: no per-event cost when tracing is off), with what its
 * outgoing calls need to carry its trace: the caller's own trace context
 * when tracing is off (so a trace passes through untraced Cadre hops), else
 * each execution's span.
 */
export function observedRun(
  telemetry: Telemetry | undefined,
  onEvent: EventListener | undefined,
  options: ObserveOptions = {},
): { onEvent?: EventListener; traceCarrier?: (executionId: string) => TraceCarrier | undefined } {
  if (telemetry) {
    const run = telemetry.observeRun(onEvent, options);
    return { onEvent: run.onEvent, traceCarrier: run.carrier };
  }
  const parent = options.parent;
  return {
    ...(onEvent ? { onEvent } : {}),
    ...(parent ? { traceCarrier: () => parent } : {}),
  };
}
