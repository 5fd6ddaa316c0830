import { connect } from 'node:net';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

/** `ExportResultCode` values, without importing `@opentelemetry/core` for two constants. */
const EXPORT_SUCCESS = 0;
const EXPORT_FAILED = 1;

/** Errors that mean nothing listens there: no retry will change that within a run. */
const REFUSED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** Whether a TCP connection to the collector is refused outright (a slow answer is not a refusal). */
function refused(host: string, port: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (code: string | undefined) => {
      socket.destroy();
      resolve(code);
    };
    socket.setTimeout(timeoutMs, () => finish(undefined));
    socket.once('connect', () => finish(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      finish(error.code && REFUSED.has(error.code) ? error.code : undefined),
    );
  });
}

/**
 * The exporter, made to fail at once when the collector refuses the
 * connection: the OTLP exporter retries a refusal with back-off (about a
 * second at shutdown), which a CLI run would wait out. Until an export
 * succeeds, each one first checks that something listens (one TCP connect
 * on loopback costs well under a millisecond); after that, exports go
 * straight through, and the first failure makes the check come back.
 */
export function refusedFast(exporter: SpanExporter, url: string, timeoutMs: number): SpanExporter {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  let reachable = false;
  const exportNow: SpanExporter['export'] = (spans, done) =>
    exporter.export(spans, (result) => {
      reachable = result.code === EXPORT_SUCCESS;
      done(result);
    });
  return {
    export: (spans, done) => {
      if (reachable) return exportNow(spans, done);
      void refused(host, port, Math.min(timeoutMs, 1000)).then((code) => {
        if (!code) return exportNow(spans, done);
        done({
          code: EXPORT_FAILED,
          error: new Error(`connection refused (${code} from ${host}:${port})`),
        });
      });
    },
    shutdown: () => exporter.shutdown(),
    ...(exporter.forceFlush
      ? { forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve() }
      : {}),
  };
}
