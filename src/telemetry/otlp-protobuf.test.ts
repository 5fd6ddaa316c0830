import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import protobuf from 'protobufjs';
import { afterAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../model/scripted-model.js';
import { run } from '../runtime/run-verbs.js';
import { receiver } from './testing/otlp-receiver.js';
import { otlpTelemetry } from './otlp-telemetry.js';
import { DEFAULT_EXPORT_TIMEOUT_MS, telemetryConfig } from './telemetry-config.js';
import type { Telemetry } from './telemetry.js';

/** The parts of opentelemetry-proto's trace export request these tests read. */
const PROTO = `
syntax = "proto3";
message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; } }
message KeyValue { string key = 1; AnyValue value = 2; }
message Span { bytes trace_id = 1; bytes span_id = 2; bytes parent_span_id = 4; string name = 5; repeated KeyValue attributes = 9; }
message InstrumentationScope { string name = 1; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
`;
const ExportRequest = protobuf.parse(PROTO).root.lookupType('ExportTraceServiceRequest');

interface DecodedSpan {
  name: string;
  attributes: Array<{ key: string; value: { stringValue?: string } }>;
}

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

const runOnce = (telemetry: Telemetry) =>
  run(
    {
      name: 'greeter',
      description: 'Greets',
      promptConfig: { systemPrompt: 'Greet.' },
      toolConfig: { tools: [] },
    },
    {
      model: new ScriptedModel([
        { parts: [{ text: 'hi' }], usage: { inputTokens: 3, outputTokens: 1 } },
      ]),
      inputs: { prompt: 'hello' },
      onEvent: telemetry.observe(),
    },
  );

/** A port on 127.0.0.1 nothing listens on: a collector that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('OTLP export settings (scripted model responses)', () => {
  it('sends protobuf bodies a strict protobuf parser reads when OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf', async () => {
    const collector = await receiver();
    servers.push(collector.server);
    const config = telemetryConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    });
    if (!config) throw new Error('expected a config');
    const telemetry = otlpTelemetry(config, () => {});
    await runOnce(telemetry);
    await telemetry.shutdown();
    const first = collector.exports[0];
    expect(first?.headers['content-type']).toBe('application/x-protobuf');
    const decoded = ExportRequest.toObject(ExportRequest.decode(first?.raw ?? Buffer.alloc(0))) as {
      resourceSpans: Array<{ scopeSpans: Array<{ spans: DecodedSpan[] }> }>;
    };
    const spans = decoded.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    expect(spans.map((s) => s.name).sort()).toEqual([
      'chat gemini-2.5-flash',
      'invoke_agent greeter',
    ]);
    const agent = spans.find((s) => s.name === 'invoke_agent greeter');
    expect(agent?.attributes).toContainEqual({
      key: 'gen_ai.operation.name',
      value: { stringValue: 'invoke_agent' },
    });
  });

  it('refuses gRPC by name rather than sending JSON to a gRPC port', () => {
    expect(() =>
      telemetryConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      }),
    ).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json/);
  });

  it('gives a collector that is down at most the export timeout, then says so in one line', async () => {
    const port = await closedPort();
    const config = telemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
    if (!config) throw new Error('expected a config');
    // The bound shutdown waits, and the exporter's own deadline for its retries.
    expect(config.timeoutMillis).toBe(DEFAULT_EXPORT_TIMEOUT_MS);
    expect(DEFAULT_EXPORT_TIMEOUT_MS).toBeLessThanOrEqual(2_000);
    const lines: string[] = [];
    const telemetry = otlpTelemetry(config, (line) => lines.push(line));
    await runOnce(telemetry);
    await telemetry.shutdown();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^cadre: traces not sent to http://127\\.0\\.0\\.1:${port}/v1/traces: `),
    );
  });
});
