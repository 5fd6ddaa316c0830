import { telemetryConfig, type TelemetryEnv } from './telemetry-config.js';
import type { Telemetry } from './telemetry.js';

/**
 * Tracing as the environment asks: undefined (and no OpenTelemetry code
 * loaded) unless OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set; else an OTLP/HTTP exporter
 * behind a batch processor, loaded now.
 */
export async function telemetryFromEnv(env: TelemetryEnv): Promise<Telemetry | undefined> {
  const config = telemetryConfig(env);
  if (!config) return undefined;
  const { otlpTelemetry } = await import('./otlp-telemetry.js');
  return otlpTelemetry(config);
}
