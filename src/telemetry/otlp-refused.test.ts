import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../model/scripted-model.js';
import { run } from '../runtime/run-verbs.js';
import { telemetryFromEnv } from './telemetry-from-env.js';

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a collector that refuses connections', () => {
  it('costs under 100 ms at shutdown, and says once that the spans were not sent (scripted model)', async () => {
    const lines: string[] = [];
    const port = await closedPort();
    const telemetry = await telemetryFromEnv(
      { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` },
      (line) => lines.push(line),
    );
    if (!telemetry) throw new Error('expected telemetry');
    const result = await run(
      {
        name: 'greeter',
        description: 'Greets',
        promptConfig: { systemPrompt: 'Greet.' },
        toolConfig: { tools: [] },
      },
      {
        model: new ScriptedModel([{ parts: [{ text: 'hi' }] }]),
        inputs: { prompt: 'hello' },
        onEvent: telemetry.observe(),
      },
    );
    expect(result.terminate_reason).toBe('GOAL');
    const started = performance.now();
    await telemetry.shutdown();
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(100);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`127.0.0.1:${port}`);
  });
});
