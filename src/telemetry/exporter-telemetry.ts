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
  const failures = { last: undefined as string | undefined };
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(watched(exporter, failures))],
  });
  return createTelemetry(provider, { ...options, lastExportFailure: () => failures.last });
}

/** `ExportResultCode.SUCCESS`, without importing `@opentelemetry/core` for one constant. */
const EXPORT_SUCCESS = 0;

/** The exporter, noting why its latest export failed (cleared by one that succeeds). */
function watched(exporter: SpanExporter, failures: { last: string | undefined }): SpanExporter {
  return {
    export: (spans, done) =>
      exporter.export(spans, (result) => {
        failures.last =
          result.code === EXPORT_SUCCESS
            ? undefined
            : (result.error?.message ?? 'the export failed');
        done(result);
      }),
    shutdown: () => exporter.shutdown(),
    ...(exporter.forceFlush
      ? { forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve() }
      : {}),
  };
}
