import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors/validation-error.js';
import {
  auth,
  fakeService,
  jsonAuth,
  startTestServer,
  type TestServer,
} from './testing/test-support.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('logs (pino)', () => {
  it('never carries the token, the prompt or the feedback; server faults are logged', async () => {
    server = await startTestServer(
      fakeService({
        run: () => Promise.reject(Object.assign(new Error('boom'), { token: 'ann-token' })),
        resolveApproval: () =>
          Promise.reject(new ValidationError([{ path: 'x', message: 'nope' }])),
      }),
    );
    const post = (path: string, body: unknown) =>
      fetch(`${server?.url}${path}`, {
        method: 'POST',
        headers: jsonAuth(),
        body: JSON.stringify(body),
      });
    expect((await post('/api/agent/run', { prompt: 'PROMPT-TEXT' })).status).toBe(500);
    const resolve = { approvalId: 'a1', decision: 'reject', feedback: 'FEEDBACK-TEXT' };
    expect((await post('/api/agent/approvals/resolve', resolve)).status).toBe(422);
    const logs = server.logs();
    expect(logs).toContain('"msg":"request failed"');
    expect(logs).toContain('boom');
    expect(logs).not.toContain('ann-token');
    expect(logs).not.toContain('PROMPT-TEXT');
    expect(logs).not.toContain('FEEDBACK-TEXT');
    expect(logs).not.toMatch(/authorization/i);
  });
});

describe('request lines and levels', () => {
  function capture(): { stream: Writable; records: () => Array<Record<string, unknown>> } {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const records = () =>
      lines
        .join('')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { stream, records };
  }
  const completed = (records: Array<Record<string, unknown>>) =>
    records.filter((r) => r.msg === 'request completed');
  const failing = fakeService({ run: () => Promise.reject(new Error('boom')) });
  const run = () =>
    fetch(`${server?.url}/api/agent/run`, {
      method: 'POST',
      headers: jsonAuth(),
      body: JSON.stringify({ prompt: 'hi' }),
    });

  it('at info, one finished line per request carries method, url, status and time', async () => {
    const { stream, records } = capture();
    server = await startTestServer(fakeService(), { log: { level: 'info', stream } });
    expect((await fetch(`${server.url}/nope`, { headers: auth() })).status).toBe(404);
    expect(completed(records())).toEqual([
      expect.objectContaining({
        level: 30,
        req: expect.objectContaining({ method: 'GET', url: '/nope' }),
        res: { statusCode: 404 },
        responseTime: expect.any(Number),
      }),
    ]);
  });

  it('at warn, a 404 is not written but a 500 is', async () => {
    const { stream, records } = capture();
    server = await startTestServer(failing, { log: { level: 'warn', stream } });
    expect((await fetch(`${server.url}/nope`, { headers: auth() })).status).toBe(404);
    expect((await run()).status).toBe(500);
    const lines = records();
    expect(lines.some((r) => JSON.stringify(r).includes('/nope'))).toBe(false);
    expect(completed(lines)).toEqual([
      expect.objectContaining({ level: 40, res: { statusCode: 500 } }),
    ]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 50, msg: 'request failed' }));
  });

  it('at silent, nothing is written', async () => {
    const { stream, records } = capture();
    server = await startTestServer(failing, { log: { level: 'silent', stream } });
    expect((await run()).status).toBe(500);
    expect(records()).toEqual([]);
  });
});
