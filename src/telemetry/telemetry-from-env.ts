import { optionalImport } from '../util/optional-import.js';
import { telemetryConfig, type TelemetryEnv } from './telemetry-config.js';
import type { Telemetry } from './telemetry.js';

/** Optional peers: `npm install cadre` leaves them out. */
const OPENTELEMETRY = {
  needs: 'Tracing (OTEL_EXPORTER_OTLP_ENDPOINT) needs',
  packages: [
    '@opentelemetry/api',
    '@opentelemetry/sdk-trace-base',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/resources',
    '@opentelemetry/semantic-conventions',
  ],
};

/**
 * Tracing as the environment asks: undefined (and no OpenTelemetry code
 * loaded) unless OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set; else an OTLP/HTTP exporter
 * behind a batch processor, loaded now.
 */
export async function telemetryFromEnv(
  env: TelemetryEnv,
  /** Where the one line about lost spans goes; default stderr. */
  warn?: (line: string) => void,
): Promise<Telemetry | undefined> {
  const config = telemetryConfig(env);
  if (!config) return undefined;
  const { otlpTelemetry } = await optionalImport(
    () => import('./otlp-telemetry.js'),
    OPENTELEMETRY,
  );
  return otlpTelemetry(config, warn);
}
