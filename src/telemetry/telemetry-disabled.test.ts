import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { eagerImportsOf } from '../testing/static-imports.js';
import { telemetryFromEnv } from './telemetry-from-env.js';

// Counts loads of the one module that brings in OpenTelemetry.
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('./otlp-telemetry.js', async (importOriginal) => {
  loads.count++;
  return importOriginal();
});

const OTEL = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
];
const loadedOtel = (): string[] =>
  Object.keys(createRequire(import.meta.url).cache).filter((file) =>
    file.includes(`${path.sep}@opentelemetry${path.sep}`),
  );

describe('telemetry when off', () => {
  it('is undefined without an endpoint, or when switched off, and loads no OpenTelemetry code', async () => {
    const before = loadedOtel();
    expect(await telemetryFromEnv({})).toBeUndefined();
    expect(await telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeUndefined();
    const endpoint = 'http://127.0.0.1:4318';
    expect(
      await telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SDK_DISABLED: 'true' }),
    ).toBeUndefined();
    expect(
      await telemetryFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_TRACES_EXPORTER: 'none',
      }),
    ).toBeUndefined();
    expect(loads.count).toBe(0);
    expect(loadedOtel()).toEqual(before);

    // The check above can see a load: turning tracing on does one.
    const telemetry = await telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
    expect(telemetry).toBeDefined();
    expect(loads.count).toBe(1);
    // (A file run alone starts clean; one sharing its process may have loaded them already.)
    if (before.length === 0) expect(loadedOtel().length).toBeGreaterThan(0);
    await telemetry?.shutdown();
  });

  it('imports no OpenTelemetry package up front', () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const { offenders } = eagerImportsOf(path.join(here, 'telemetry-from-env.ts'), OTEL);
    expect(offenders).toEqual([]);
  });
});
