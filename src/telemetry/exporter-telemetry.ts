import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { createTelemetry, type TelemetryOptions } from './create-telemetry.js';
import { DEFAULT_SERVICE_NAME } from './telemetry-config.js';
import type { Telemetry } from './telemetry.js';

export interface ExporterTelemetryOptions extends TelemetryOptions {
  serviceName?: string;
  resourceAttributes?: Readonly<Record<string, string>>;
}

/**
 * Telemetry that batches spans to any exporter (OTLP in production, an
 * in-memory one in tests). The batch processor reads OTEL_BSP_* itself.
 */
export function exporterTelemetry(
  exporter: SpanExporter,
  options: ExporterTelemetryOptions = {},
): Telemetry {
  const resource = defaultResource().merge(
    resourceFromAttributes({
      ...options.resourceAttributes,
      'service.name': options.serviceName ?? DEFAULT_SERVICE_NAME,
    }),
  );
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  return createTelemetry(provider, options);
}
