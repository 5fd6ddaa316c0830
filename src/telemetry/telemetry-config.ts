import { ConfigError } from '../errors/cadre-error.js';

/**
 * Reads the standard OTEL_* variables from a given environment (not
 * process.env: the CLI and tests pass their own), without loading any
 * OpenTelemetry code.
 */

export type TelemetryEnv = Readonly<Record<string, string | undefined>>;

export interface TelemetryConfig {
  /** Where spans go: the traces endpoint, `/v1/traces` already appended when derived. */
  url: string;
  headers: Record<string, string>;
  /** `http/json` (the default here) or `http/protobuf`, as OTEL_EXPORTER_OTLP_PROTOCOL says. */
  protocol: OtlpProtocol;
  /**
   * How long one export may take, retries included, and how long shutdown
   * waits for the last one: a collector that is down costs a command at most this.
   */
  timeoutMillis: number;
  compression?: 'gzip' | 'none';
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, parsed. */
  resourceAttributes: Record<string, string>;
  /** Prompts, answers, tool arguments and results on spans (off unless asked for: they may be private). */
  captureContent: boolean;
}

export const DEFAULT_SERVICE_NAME = 'cadre';

export type OtlpProtocol = 'http/json' | 'http/protobuf';

/**
 * Shorter than the exporter's own 10 s: its retries against a collector
 * that is down would otherwise hold a CLI run open for about 8 s.
 */
export const DEFAULT_EXPORT_TIMEOUT_MS = 2_000;

/**
 * The exporter's settings, or undefined when tracing is off (no endpoint, or
 * switched off). An endpoint that is not a URL is a setup error, not silence.
 */
export function telemetryConfig(env: TelemetryEnv): TelemetryConfig | undefined {
  const tracesEndpoint = read(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const endpoint = read(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (!tracesEndpoint && !endpoint) return undefined;
  if (read(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  if (read(env, 'OTEL_TRACES_EXPORTER')?.toLowerCase() === 'none') return undefined;
  const resourceAttributes = keyValues(read(env, 'OTEL_RESOURCE_ATTRIBUTES'));
  const timeout = Number(signal(env, 'TIMEOUT'));
  const compression = signal(env, 'COMPRESSION')?.toLowerCase();
  const protocol = protocolOf(env);
  // The signal-specific endpoint is used as given; the general one gets the signal's path.
  const url = tracesEndpoint ?? `${(endpoint ?? '').replace(/\/+$/, '')}/v1/traces`;
  if (!isHttpUrl(url))
    throw new ConfigError(
      `${tracesEndpoint ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT'} must be an http(s) URL, e.g. http://localhost:4318 (got "${tracesEndpoint ?? endpoint}").`,
    );
  return {
    url,
    headers: {
      ...keyValues(read(env, 'OTEL_EXPORTER_OTLP_HEADERS')),
      ...keyValues(read(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS')),
    },
    protocol,
    timeoutMillis: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_EXPORT_TIMEOUT_MS,
    ...(compression === 'gzip' || compression === 'none' ? { compression } : {}),
    serviceName:
      read(env, 'OTEL_SERVICE_NAME') ?? resourceAttributes['service.name'] ?? DEFAULT_SERVICE_NAME,
    resourceAttributes,
    captureContent:
      read(env, 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT')?.toLowerCase() === 'true',
  };
}

/** OTLP over HTTP only: gRPC would need another exporter, so it is refused rather than ignored. */
function protocolOf(env: TelemetryEnv): OtlpProtocol {
  const value = signal(env, 'PROTOCOL')?.toLowerCase();
  if (value === undefined || value === 'http/json') return 'http/json';
  if (value === 'http/protobuf') return value;
  const name = read(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  throw new ConfigError(
    `${name} must be http/protobuf or http/json (got "${value}"); Cadre sends traces over OTLP/HTTP.`,
  );
}

/** `OTEL_EXPORTER_OTLP_TRACES_<name>`, else `OTEL_EXPORTER_OTLP_<name>`. */
function signal(env: TelemetryEnv, name: string): string | undefined {
  return read(env, `OTEL_EXPORTER_OTLP_TRACES_${name}`) ?? read(env, `OTEL_EXPORTER_OTLP_${name}`);
}

/** The W3C-baggage-like list the spec uses for headers and resource attributes: `k=v,k2=v%20x`. */
export function keyValues(text: string | undefined): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const item of (text ?? '').split(',')) {
    const at = item.indexOf('=');
    if (at <= 0) continue;
    const key = decode(item.slice(0, at).trim());
    if (key) pairs[key] = decode(item.slice(at + 1).trim());
  }
  return pairs;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function read(env: TelemetryEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}
