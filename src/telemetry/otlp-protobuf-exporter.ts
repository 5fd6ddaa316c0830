import {
  OTLPExporterBase,
  type OTLPExporterNodeConfigBase,
} from '@opentelemetry/otlp-exporter-base';
import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from '@opentelemetry/otlp-exporter-base/node-http';
import {
  ProtobufTraceSerializer,
  TraceExporterMetricsHelper,
} from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/**
 * OTLP/HTTP with protobuf bodies (`OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf`),
 * built from the same parts as the JSON exporter: the HTTP delegate (retries,
 * timeout, compression, headers) with the protobuf serializer, as
 * `@opentelemetry/exporter-trace-otlp-proto` does, without a further package.
 */
export class OtlpProtobufTraceExporter
  extends OTLPExporterBase<ReadableSpan[]>
  implements SpanExporter
{
  constructor(config: OTLPExporterNodeConfigBase) {
    super(
      createOtlpHttpExportDelegate(
        convertLegacyHttpOptions(config, 'TRACES', 'v1/traces', {
          'Content-Type': 'application/x-protobuf',
        }),
        ProtobufTraceSerializer,
        'otlp_http_span_exporter',
        TraceExporterMetricsHelper,
        undefined,
      ),
    );
  }
}
