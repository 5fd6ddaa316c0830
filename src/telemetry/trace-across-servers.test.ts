import type { Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  peerClient,
  sendText,
  startCadrePeers,
  type CadrePeers,
} from '../a2a/testing/cadre-peers.js';
import { remoteAnswer } from '../a2a/remote-answer.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { run } from '../agents/run-verbs.js';
import { receiver, spansWithService, type Export } from './testing/otlp-receiver.js';
import { telemetryFromEnv } from './telemetry-from-env.js';

const TOKEN_VAR = 'CADRE_TEST_TRACE_PEER_TOKEN';
const saved = {
  token: process.env[TOKEN_VAR],
  delay: process.env.OTEL_BSP_SCHEDULE_DELAY,
};
let collector: {
  url: string;
  server: Server;
  arrived: (done: (e: Export[]) => boolean) => Promise<void>;
};
let peers: CadrePeers;

beforeAll(async () => {
  collector = await receiver();
  // Each server's batch processor sends soon after a span ends, so the test waits on arrivals, not shutdowns.
  process.env.OTEL_BSP_SCHEDULE_DELAY = '20';
  peers = await startCadrePeers({
    tokenVar: TOKEN_VAR,
    env: (name) => ({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: `cadre-${name}`,
    }),
  });
});
afterAll(async () => {
  for (const [name, value] of [
    [TOKEN_VAR, saved.token],
    ['OTEL_BSP_SCHEDULE_DELAY', saved.delay],
  ] as const)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  await peers.close();
  await new Promise((resolve) => collector.server.close(resolve));
});

/** A client's span, from the OTel SDK, and the `traceparent` its request carries. */
function clientSpan(name: string) {
  const span = new BasicTracerProvider().getTracer('test-client').startSpan(name);
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01`, end: () => span.end() };
}

const spansOfTrace = (exports: Export[], traceId: string) =>
  spansWithService(exports).filter((span) => span.traceId === traceId);

describe('W3C trace context across two Cadre servers (OTLP receiver on loopback, scripted models)', () => {
  it('a client’s traceparent on an A2A call to one server is continued there and on the server it calls with its token: one trace id', async () => {
    const client = clientSpan('ask boss');
    const c = await peerClient(peers.home, 'boss', {
      slash: true,
      headers: { traceparent: client.traceparent, tracestate: 'vendor=abc' },
    });
    const task = await sendText(c, 'rain in Bergen?');
    client.end();
    expect(remoteAnswer(task).text).toContain('Hello! You said: rain in Bergen?');

    await collector.arrived((exports) => {
      const names = spansOfTrace(exports, client.traceId).map(
        (s) => `${String(s.service)} ${s.name}`,
      );
      return (
        names.includes('cadre-home invoke_agent boss') &&
        names.includes('cadre-peer invoke_agent greeter')
      );
    });
    const spans = spansOfTrace(await exportsNow(), client.traceId);
    const one = (service: string, name: string) => {
      const found = spans.find((s) => s.service === service && s.name === name);
      if (!found) throw new Error(`no ${name} span from ${service}`);
      return found;
    };
    const boss = one('cadre-home', 'invoke_agent boss');
    const weather = one('cadre-home', 'invoke_agent weather');
    const greeter = one('cadre-peer', 'invoke_agent greeter');
    // Home's run hangs under the client's span; the peer's under the remote agent that called it.
    expect(boss.parentSpanId).toBe(client.spanId);
    expect(greeter.parentSpanId).toBe(weather.spanId);
    expect(spans.some((s) => s.service === 'cadre-peer' && s.name.startsWith('chat'))).toBe(true);
  });

  it('a traceparent on POST /api/agent/run is continued by the run’s spans; an invalid one starts a new trace', async () => {
    const client = clientSpan('ask greeter');
    const post = (traceparent: string) =>
      fetch(`${peers.peer.server.url}/api/agent/run`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${peers.peer.users.ann.token}`,
          traceparent,
        },
        body: JSON.stringify({ agent: 'greeter', prompt: 'traced hello' }),
      });
    expect((await post(client.traceparent)).status).toBe(200);
    await collector.arrived((exports) =>
      spansOfTrace(exports, client.traceId).some((s) => s.name === 'invoke_agent greeter'),
    );
    const root = spansOfTrace(await exportsNow(), client.traceId).find(
      (s) => s.name === 'invoke_agent greeter',
    );
    expect(root?.parentSpanId).toBe(client.spanId);
    // All-zero ids are invalid (W3C): the run starts its own trace instead.
    const roots = (exports: Export[]) =>
      spansWithService(exports).filter(
        (s) => s.service === 'cadre-peer' && s.name === 'invoke_agent greeter',
      );
    const before = roots(await exportsNow()).length;
    const zero = `00-${'0'.repeat(32)}-${client.spanId}-01`;
    expect((await post(zero)).status).toBe(200);
    await collector.arrived((exports) => roots(exports).length > before);
    const fresh = roots(await exportsNow()).at(-1);
    expect(fresh?.traceId).not.toMatch(/^0+$/);
    expect(fresh?.parentSpanId ?? '').toBe('');
  });
});

describe('W3C trace context on the other entry points (OTLP receiver on loopback, scripted models)', () => {
  it('an MCP client over HTTP sending traceparent gets a run that continues its trace', async () => {
    const client = clientSpan('call greeter over MCP');
    const transport = new StreamableHTTPClientTransport(new URL(`${peers.peer.server.url}/mcp`), {
      requestInit: {
        headers: {
          authorization: `Bearer ${peers.peer.users.ann.token}`,
          traceparent: client.traceparent,
        },
      },
    });
    const mcp = new Client({ name: 'trace-test', version: '1' });
    await mcp.connect(transport);
    try {
      await mcp.callTool({ name: 'greeter', arguments: { prompt: 'over mcp' } });
    } finally {
      await mcp.close();
    }
    await collector.arrived((exports) =>
      spansOfTrace(exports, client.traceId).some((s) => s.name === 'invoke_agent greeter'),
    );
    const root = spansOfTrace(await exportsNow(), client.traceId).find(
      (s) => s.name === 'invoke_agent greeter',
    );
    expect(root?.parentSpanId).toBe(client.spanId);
  });

  it('a traceparent on POST /v1/chat/completions is continued too', async () => {
    const client = clientSpan('chat');
    const res = await fetch(`${peers.peer.server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${peers.peer.users.ann.token}`,
        traceparent: client.traceparent,
      },
      body: JSON.stringify({ model: 'greeter', messages: [{ role: 'user', content: 'via v1' }] }),
    });
    expect(res.status).toBe(200);
    await collector.arrived((exports) =>
      spansOfTrace(exports, client.traceId).some((s) => s.name === 'invoke_agent greeter'),
    );
  });
});

describe('W3C trace context on outgoing MCP calls (OTLP receiver on loopback, scripted models)', () => {
  it('a traced run calling a cadre /mcp tool puts its trace in the call’s _meta, and the server’s run joins it', async () => {
    const telemetry = await telemetryFromEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: 'cadre-library',
    });
    if (!telemetry) throw new Error('expected telemetry');
    const traced = telemetry.observeRun();
    const model = new ScriptedModel((request) =>
      request.messages.at(-1)?.parts.some((p) => p.kind === 'function_response')
        ? { parts: [{ text: 'done' }] }
        : { parts: [{ functionCall: { name: 'peer__greeter', args: { prompt: 'by mcp' } } }] },
    );
    const result = await run(
      {
        name: 'caller',
        description: 'Calls the peer over MCP.',
        promptConfig: { systemPrompt: 'Call.' },
        toolConfig: { tools: ['peer__greeter'] },
        mcpServers: {
          peer: {
            transport: 'http',
            url: `${peers.peer.server.url}/mcp`,
            headers: { authorization: `Bearer ${peers.peer.users.ann.token}` },
          },
        },
      },
      {
        model,
        inputs: { prompt: 'go' },
        onEvent: traced.onEvent,
        // The peer's agent tool has side effects: this run's person approves it.
        confirm: () => Promise.resolve({ kind: 'approve' as const }),
        traceCarrier: traced.carrier,
      },
    );
    await telemetry.shutdown();
    expect(result.terminate_reason).toBe('GOAL');
    await collector.arrived((exports) => {
      const spans = spansWithService(exports);
      const caller = spans.find((s) => s.name === 'invoke_agent caller');
      return (
        caller !== undefined &&
        spans.some((s) => s.service === 'cadre-peer' && s.traceId === caller.traceId)
      );
    });
    const spans = spansWithService(await exportsNow());
    const caller = spans.find((s) => s.name === 'invoke_agent caller');
    const served = spans.find(
      (s) =>
        s.service === 'cadre-peer' &&
        s.traceId === caller?.traceId &&
        s.name === 'invoke_agent greeter',
    );
    expect(served?.parentSpanId).toBe(caller?.spanId);
  });
});

/** What the collector holds now. */
async function exportsNow(): Promise<Export[]> {
  let held: Export[] = [];
  await collector.arrived((exports) => {
    held = exports;
    return true;
  });
  return held;
}
