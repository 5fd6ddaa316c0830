import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { CadreEvent } from '../events/types.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { run } from '../runtime/run-verbs.js';
import { echoTool } from '../testing/test-tools.js';
import {
  attribute,
  receiver,
  spansOf,
  type Export,
  type OtlpSpan,
} from './testing/otlp-receiver.js';
import { telemetryFromEnv } from './telemetry-from-env.js';

async function runOnce(onEvent: (event: CadreEvent) => void): Promise<void> {
  const model = new ScriptedModel([
    {
      parts: [{ functionCall: { name: 'echo', args: { text: 'hi' } } }],
      usage: { inputTokens: 12, outputTokens: 3 },
    },
    { parts: [{ text: 'done' }], usage: { inputTokens: 20, outputTokens: 1 } },
  ]);
  const result = await run(
    {
      name: 'greeter',
      description: 'Greets',
      promptConfig: { systemPrompt: 'Greet.' },
      toolConfig: { tools: ['echo'] },
    },
    { model, tools: [echoTool()], inputs: { prompt: 'hello' }, onEvent },
  );
  expect(result.terminate_reason).toBe('GOAL');
}

describe('OTLP/HTTP export to a collector on loopback', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    servers.length = 0;
  });

  it('sends the run’s spans as OTLP/JSON to OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces on shutdown', async () => {
    const collector = await receiver();
    servers.push(collector.server);
    const telemetry = await telemetryFromEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/`,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=let%20me%20in',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test,service.name=ignored',
      OTEL_SERVICE_NAME: 'cadre-under-test',
    });
    if (!telemetry) throw new Error('expected telemetry');
    await runOnce(telemetry.observe());
    expect(collector.exports).toEqual([]); // batched: nothing before the flush
    await telemetry.shutdown();

    expect(collector.exports.length).toBeGreaterThan(0);
    const first = collector.exports[0] as Export;
    expect(first.method).toBe('POST');
    expect(first.path).toBe('/v1/traces');
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers['x-collector-key']).toBe('let me in');
    const resource = first.body.resourceSpans[0]?.resource.attributes ?? [];
    expect(attribute(resource, 'service.name')).toBe('cadre-under-test');
    expect(attribute(resource, 'deployment.environment')).toBe('test');
    expect(first.body.resourceSpans[0]?.scopeSpans[0]?.scope.name).toBe('cadre');

    const spans = spansOf(collector.exports);
    expect(spans.map((s) => s.name).sort()).toEqual([
      'chat gemini-2.5-flash',
      'chat gemini-2.5-flash',
      'execute_tool echo',
      'invoke_agent greeter',
    ]);
    const agent = spans.find((s) => s.name === 'invoke_agent greeter') as OtlpSpan;
    expect(attribute(agent.attributes, 'gen_ai.operation.name')).toBe('invoke_agent');
    expect(attribute(agent.attributes, 'gen_ai.usage.input_tokens')).toBe(32);
    expect(attribute(agent.attributes, 'gen_ai.usage.output_tokens')).toBe(4);
    for (const span of spans.filter((s) => s !== agent))
      expect(span.parentSpanId).toBe(agent.spanId);
    const tool = spans.find((s) => s.name === 'execute_tool echo') as OtlpSpan;
    expect(attribute(tool.attributes, 'gen_ai.tool.name')).toBe('echo');
    expect(attribute(tool.attributes, 'gen_ai.tool.call.arguments')).toBeUndefined();
  });

  it('uses OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, compressed when asked, with content when asked', async () => {
    const collector = await receiver();
    servers.push(collector.server);
    const telemetry = await telemetryFromEnv({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/custom/traces`,
      OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'gzip',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
    });
    if (!telemetry) throw new Error('expected telemetry');
    await runOnce(telemetry.observe());
    await telemetry.shutdown();
    expect(collector.exports.map((e) => [e.path, e.headers['content-encoding']])).toContainEqual([
      '/custom/traces',
      'gzip',
    ]);
    const resource = collector.exports[0]?.body.resourceSpans[0]?.resource.attributes ?? [];
    expect(attribute(resource, 'service.name')).toBe('cadre');
    const tool = spansOf(collector.exports).find((s) => s.name === 'execute_tool echo');
    expect(attribute(tool?.attributes ?? [], 'gen_ai.tool.call.arguments')).toBe('{"text":"hi"}');
  });
});
