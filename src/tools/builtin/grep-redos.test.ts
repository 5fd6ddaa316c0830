import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { startInProcessServer, type InProcessServer } from '../../testing/in-process-server.js';

// The pattern and line from the incident: a backtracking RegExp needs about 2^40 steps here.
const REDOS = '^(a+)+$';
const HOSTILE_LINE = `${'a'.repeat(40)}!`;
const GOOD_LINE = 'a'.repeat(40);

let dir: string;
let server: InProcessServer;
let grepCalled: () => void;
const grepCall = new Promise<void>((resolve) => (grepCalled = resolve));

const lastParts = (r: ModelRequest) => r.messages.at(-1)?.parts ?? [];
/** Scripted: the model greps with the ReDoS pattern, then (after a pause) reports what grep said. */
const model = new ScriptedModel((r): ScriptedTurn => {
  const answer = lastParts(r).find((p) => p.kind === 'function_response');
  if (answer === undefined) {
    grepCalled();
    return { parts: [{ functionCall: { name: 'grep', args: { pattern: REDOS, path: 'data' } } }] };
  }
  // The pause keeps the run going while the test asks /healthz.
  return { parts: [{ text: `grep said: ${JSON.stringify(answer.response)}` }], delayMs: 300 };
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-grep-redos-'));
  await mkdir(join(dir, 'agents'));
  await writeFile(
    join(dir, 'agents', 'searcher.yaml'),
    'name: searcher\ndescription: Searches files.\npromptConfig:\n  systemPrompt: Search.\n' +
      'toolConfig:\n  tools: [grep]\n',
  );
  await mkdir(join(dir, 'data'));
  await writeFile(join(dir, 'data', 'lines.txt'), `${HOSTILE_LINE}\n${GOOD_LINE}\n`);
  server = await startInProcessServer({ cwd: dir, env: {}, modelClient: model });
}, 30_000);
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('grep with a catastrophic regex on a real server (scripted model, real SQLite)', () => {
  it('the scripted model greps ^(a+)+$: /healthz answers during the run, which completes with the right match', async () => {
    let settled = false;
    const { client, url } = server;
    const run = client
      .post(url, '/api/agent/run', { prompt: 'Find runs of a', agent: 'searcher' })
      .finally(() => (settled = true));
    await grepCall;

    const health = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
    expect(settled).toBe(false);

    const response = await run;
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; summary: string };
    expect(body.status).toBe('completed');
    expect(body.summary).toContain(`data/lines.txt:2: ${GOOD_LINE}`);
    expect(body.summary).not.toContain('lines.txt:1:');
  });
});
