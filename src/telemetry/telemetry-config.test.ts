import { describe, expect, it } from 'vitest';
import { keyValues, telemetryConfig } from './telemetry-config.js';

describe('telemetry settings from OTEL_* variables', () => {
  it('is off without an endpoint', () => {
    expect(telemetryConfig({})).toBeUndefined();
    expect(telemetryConfig({ OTEL_SERVICE_NAME: 'x' })).toBeUndefined();
  });

  it('appends the traces path to the general endpoint and keeps the traces endpoint as given', () => {
    expect(telemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })?.url).toBe(
      'http://c:4318/v1/traces',
    );
    expect(telemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/otlp/' })?.url).toBe(
      'http://c:4318/otlp/v1/traces',
    );
    expect(
      telemetryConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:9000/spans',
      })?.url,
    ).toBe('http://t:9000/spans');
  });

  it('merges headers (traces ones win), reads timeout, compression, service and content capture', () => {
    expect(
      telemetryConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'a=1,b=2',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'b=3,Authorization=Bearer%20t0k',
        OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
        OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'GZIP',
        OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-resource,team=core',
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'TRUE',
      }),
    ).toEqual({
      url: 'http://c:4318/v1/traces',
      headers: { a: '1', b: '3', Authorization: 'Bearer t0k' },
      protocol: 'http/json',
      timeoutMillis: 2500,
      compression: 'gzip',
      serviceName: 'from-resource',
      resourceAttributes: { 'service.name': 'from-resource', team: 'core' },
      captureContent: true,
    });
  });

  it('defaults to service cadre, no content, and ignores settings it cannot use', () => {
    expect(
      telemetryConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_TIMEOUT: 'soon',
        OTEL_EXPORTER_OTLP_COMPRESSION: 'brotli',
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'yes',
      }),
    ).toEqual({
      url: 'http://c:4318/v1/traces',
      headers: {},
      protocol: 'http/json',
      // Shorter than the exporter's 10 s, so a collector that is down costs a CLI run at most 2 s.
      timeoutMillis: 2_000,
      serviceName: 'cadre',
      resourceAttributes: {},
      captureContent: false,
    });
  });

  it('refuses an endpoint that is not an http(s) URL', () => {
    expect(() => telemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/,
    );
    expect(() => telemetryConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'collector' })).toThrow(
      /OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be/,
    );
  });

  it('parses key=value lists, skipping broken items', () => {
    expect(keyValues(' a = x%2Cy , =nokey, novalue, b=%E0%A4%A, c=')).toEqual({
      a: 'x,y',
      b: '%E0%A4%A',
      c: '',
    });
  });
});
