import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors/validation-error.js';
import { fakeService, jsonAuth, startTestServer, type TestServer } from './test-support.js';

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
