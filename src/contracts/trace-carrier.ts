/**
 * W3C trace context as it crosses a process boundary: the `traceparent`
 * and `tracestate` headers. Plain strings, so the runtime, the store and
 * the HTTP layer carry it without loading OpenTelemetry.
 */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

/** `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`, ids not all zeros (W3C Trace Context, level 1). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

export interface ParsedTraceparent {
  traceId: string;
  spanId: string;
  flags: number;
}

/** A valid `traceparent`, or undefined (an invalid one is ignored, as the spec says: a new trace starts). */
export function parseTraceparent(value: string): ParsedTraceparent | undefined {
  const match = TRACEPARENT.exec(value.trim().toLowerCase());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  if (!version || !traceId || !spanId || !flags) return undefined;
  // Version ff is invalid; version 00 has nothing after the flags.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, flags: parseInt(flags, 16) };
}

/**
 * The trace context of a request's headers, when it has a valid
 * `traceparent` (a `tracestate` alone means nothing; an over-long one is
 * dropped, as the spec allows).
 */
export function traceCarrierOf(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): TraceCarrier | undefined {
  const one = (name: string): string | undefined => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(',') : value;
  };
  const traceparent = one('traceparent');
  if (!traceparent || !parseTraceparent(traceparent)) return undefined;
  const tracestate = one('tracestate');
  return {
    traceparent: traceparent.trim().toLowerCase(),
    ...(tracestate && tracestate.length <= 512 ? { tracestate } : {}),
  };
}

/** The headers that carry `carrier` on an outgoing request. */
export const traceHeaders = (carrier: TraceCarrier | undefined): Record<string, string> =>
  carrier
    ? {
        traceparent: carrier.traceparent,
        ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}),
      }
    : {};
