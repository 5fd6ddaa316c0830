import { createTraceState, ROOT_CONTEXT, trace, type Context, type Span } from '@opentelemetry/api';
import { parseTraceparent, type TraceCarrier } from '../contracts/trace-carrier.js';

/** The context a run's root span opens in: the caller's remote span, or none. */
export function rootContext(parent: TraceCarrier | undefined): Context {
  const parsed = parent && parseTraceparent(parent.traceparent);
  if (!parsed) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: parsed.traceId,
    spanId: parsed.spanId,
    traceFlags: parsed.flags,
    isRemote: true,
    ...(parent.tracestate ? { traceState: createTraceState(parent.tracestate) } : {}),
  });
}

/** The trace context a span's outgoing calls carry; undefined when the span is not valid. */
export function carrierOf(span: Span | undefined): TraceCarrier | undefined {
  const context = span?.spanContext();
  if (!context || !trace.isSpanContextValid(context)) return undefined;
  const flags = context.traceFlags.toString(16).padStart(2, '0');
  const state = context.traceState?.serialize();
  return {
    traceparent: `00-${context.traceId}-${context.spanId}-${flags}`,
    ...(state ? { tracestate: state } : {}),
  };
}
