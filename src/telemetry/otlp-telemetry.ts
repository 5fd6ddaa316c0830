import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { exporterTelemetry } from './exporter-telemetry.js';
import type { TelemetryConfig } from './telemetry-config.js';
import type { Telemetry } from './telemetry.js';

type ExporterConfig = NonNullable<ConstructorParameters<typeof OTLPTraceExporter>[0]>;

/**
 * Spans over OTLP/HTTP (JSON) to the configured endpoint. Settings come
 * from the environment the caller passed; what it leaves out (certificates)
 * the exporter still reads from process.env.
 */
export function otlpTelemetry(config: TelemetryConfig): Telemetry {
  const exporter = new OTLPTraceExporter({
    url: config.url,
    headers: config.headers,
    ...(config.timeoutMillis ? { timeoutMillis: config.timeoutMillis } : {}),
    ...(config.compression
      ? { compression: config.compression as ExporterConfig['compression'] }
      : {}),
  });
  return exporterTelemetry(exporter, {
    captureContent: config.captureContent,
    serviceName: config.serviceName,
    resourceAttributes: config.resourceAttributes,
  });
}
