import type { EventListener, ObserveOptions, Telemetry } from './telemetry.js';

/**
 * The listener a run gets: traced when telemetry is on, else the caller's
 * own, untouched (no wrapper, so no per-event cost when tracing is off).
 */
export function observed(
  telemetry: Telemetry | undefined,
  onEvent: EventListener | undefined,
  options?: ObserveOptions,
): EventListener | undefined {
  return telemetry ? telemetry.observe(onEvent, options) : onEvent;
}
