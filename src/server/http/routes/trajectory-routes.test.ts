import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../errors/cadre-error.js';
import type { RunHooks } from '../../run-service-types.js';
import type { ForkRequest, TrajectoryView } from '../../trajectory-view-types.js';
import {
  auth,
  event,
  fakeService,
  jsonAuth,
  response,
  startTestServer,
  type TestServer,
} from '../testing/test-support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const view: TrajectoryView = {
  schema_version: 1,
  runId: 'r1',
  agent: 'assistant',
  prompt: 'Hi',
  inputs: { prompt: 'Hi' },
  model: 'scripted',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 5,
  terminateReason: 'GOAL',
  finalMessage: 'Hello.',
  steps: [],
};

describe('trajectory and fork routes over a fake RunService (real HTTP on 127.0.0.1)', () => {
  it("serves the owner's trajectory and answers 404 for anyone else's", async () => {
    const service = fakeService({
      trajectory: (userId, runId) =>
        Promise.resolve(userId === 'u-ann' && runId === 'r1' ? view : undefined),
    });
    server = await startTestServer(service);
    const own = await fetch(`${server.url}/api/runs/r1/trajectory`, { headers: auth() });
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual({ ok: true, recorded: true, trajectory: view });
    const other = await fetch(`${server.url}/api/runs/r1/trajectory`, {
      headers: auth('eve-token'),
    });
    expect(other.status).toBe(404);
    const none = await fetch(`${server.url}/api/runs/r1/trajectory`);
    expect(none.status).toBe(401);
  });

  it('answers a not-recorded run of the owner with 200, recorded: false and the reason', async () => {
    const service = fakeService({
      trajectory: () => Promise.reject(new NotFoundError('This run was not recorded.')),
    });
    server = await startTestServer(service);
    const res = await fetch(`${server.url}/api/runs/r1/trajectory`, { headers: auth() });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      recorded: false,
      message: 'This run was not recorded.',
    });
  });

  it('forks as the token user with the step and the edited prompt; bad bodies are 400', async () => {
    const seen: ForkRequest[] = [];
    const service = fakeService({
      forkRun: (request) => {
        seen.push(request);
        return Promise.resolve(request.userId === 'u-ann' ? response({ runId: 'r2' }) : undefined);
      },
    });
    server = await startTestServer(service);
    const fork = (body: unknown, token = 'ann-token') =>
      fetch(`${server?.url}/api/runs/r1/fork`, {
        method: 'POST',
        headers: jsonAuth(token),
        body: JSON.stringify(body),
      });
    const ok = await fork({ step: 2, prompt: 'Try again' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ ok: true, runId: 'r2' });
    expect(seen).toEqual([{ userId: 'u-ann', runId: 'r1', step: 2, prompt: 'Try again' }]);
    expect((await fork({ step: 2, prompt: 'x' }, 'eve-token')).status).toBe(404);
    for (const bad of [
      { prompt: 'x' },
      { step: -1, prompt: 'x' },
      { step: 1.5, prompt: 'x' },
      { step: 1, prompt: '   ' },
      { step: 1, prompt: 'x', model: 'other' },
    ]) {
      const res = await fork(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect(seen).toHaveLength(2);
  });

  it('streams a fork as NDJSON: its status line names the new run and thread first', async () => {
    const service = fakeService({
      forkRun: async (_request, hooks?: RunHooks) => {
        hooks?.onStarted?.({ runId: 'r2', threadId: 't2' });
        hooks?.onEvent?.(event('text_delta', { text: 'Hi' }));
        return Promise.resolve(response({ runId: 'r2', threadId: 't2' }));
      },
    });
    server = await startTestServer(service);
    const res = await fetch(`${server.url}/api/runs/r1/fork/stream`, {
      method: 'POST',
      headers: jsonAuth(),
      body: JSON.stringify({ step: 0, prompt: 'Again' }),
    });
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toEqual({ type: 'status', status: 'planning', threadId: 't2', runId: 'r2' });
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: { runId: 'r2' } });
  });
});
