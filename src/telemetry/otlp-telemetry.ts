import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { exporterTelemetry } from './exporter-telemetry.js';
import { OtlpProtobufTraceExporter } from './otlp-protobuf-exporter.js';
import { refusedFast } from './refused-fast-exporter.js';
import type { TelemetryConfig } from './telemetry-config.js';
import type { Telemetry } from './telemetry.js';

type ExporterConfig = NonNullable<ConstructorParameters<typeof OTLPTraceExporter>[0]>;

/**
 * Spans over OTLP/HTTP (JSON or protobuf) to the configured endpoint.
 * Settings come from the environment the caller passed; what it leaves out
 * (certificates) the exporter still reads from process.env. A collector
 * that refuses the connection costs one TCP connect (no retries), one that
 * does not answer at most the export timeout; either way one line on stderr
 * when the last spans are lost.
 */
export function otlpTelemetry(
  config: TelemetryConfig,
  warn: (line: string) => void = (line) => void process.stderr.write(`${line}\n`),
): Telemetry {
  const settings: ExporterConfig = {
    url: config.url,
    headers: config.headers,
    timeoutMillis: config.timeoutMillis,
    ...(config.compression
      ? { compression: config.compression as ExporterConfig['compression'] }
      : {}),
  };
  const exporter: SpanExporter = refusedFast(
    config.protocol === 'http/protobuf'
      ? new OtlpProtobufTraceExporter(settings)
      : new OTLPTraceExporter(settings),
    config.url,
    config.timeoutMillis,
  );
  return exporterTelemetry(exporter, {
    captureContent: config.captureContent,
    serviceName: config.serviceName,
    resourceAttributes: config.resourceAttributes,
    shutdownTimeoutMillis: config.timeoutMillis,
    onLostSpans: (reason) => warn(`cadre: traces not sent to ${config.url}: ${reason}`),
  });
}
