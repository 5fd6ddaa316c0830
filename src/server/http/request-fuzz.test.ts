import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auth,
  fakeService,
  startTestServer,
  type FakeRunService,
  type TestServer,
} from './testing/test-support.js';

/** Property tests: whatever arrives at a POST route, the answer is a 4xx with a code and the core is never called. */
const ROUTES = {
  '/api/agent/run': { prompt: 'Hi', threadId: 't1', agent: 'helper' },
  '/api/agent/run/stream': { prompt: 'Hi', threadId: 't1', agent: 'helper' },
  '/api/agent/approvals/resolve': { approvalId: 'a1', decision: 'approve_once', feedback: 'ok' },
  '/api/agent/approvals/resolve/stream': { approvalId: 'a1', decision: 'reject', feedback: 'no' },
} as const;
type Route = keyof typeof ROUTES;
const route = fc.constantFrom(...(Object.keys(ROUTES) as Route[]));

const CODES = ['validation_error', 'payload_too_large', 'unsupported_media_type'];
const notString = fc.anything().filter((v) => typeof v !== 'string' && v !== undefined);

interface Attempt {
  path: Route;
  body: string | undefined;
  contentType?: string;
}

let server: TestServer;
let service: FakeRunService;
beforeAll(async () => {
  service = fakeService();
  server = await startTestServer(service, {
    rateLimit: { max: 1_000_000, timeWindow: 60_000 },
    log: { level: 'silent' },
  });
});
afterAll(() => server.close());

async function refused(attempt: Attempt): Promise<void> {
  service.calls.splice(0);
  const res = await fetch(`${server.url}${attempt.path}`, {
    method: 'POST',
    headers: {
      ...auth(),
      ...(attempt.contentType === undefined ? {} : { 'content-type': attempt.contentType }),
    },
    ...(attempt.body === undefined ? {} : { body: attempt.body }),
  });
  const text = await res.text();
  expect(res.status, text).toBeGreaterThanOrEqual(400);
  expect(res.status, text).toBeLessThan(500);
  const body = JSON.parse(text) as { ok: unknown; error: { code: string; message: string } };
  expect(body.ok).toBe(false);
  expect(CODES).toContain(body.error.code);
  expect(body.error.message.length).toBeLessThanOrEqual(300);
  expect(service.calls).toEqual([]);
}

const json = (path: Route, value: unknown): Attempt => ({
  path,
  body: JSON.stringify(value),
  contentType: 'application/json',
});

describe('POST routes refuse every malformed request with a 4xx and touch nothing', () => {
  it('malformed JSON and non-JSON text', async () => {
    const text = fc.oneof(
      fc.string(),
      fc.string().map((s) => `{"prompt": ${s}`),
      fc.json().map((s) => s.slice(0, -1)),
    );
    await fc.assert(
      fc.asyncProperty(
        route,
        text,
        fc.constantFrom('application/json', 'text/plain'),
        async (path, body, type) => {
          await refused({ path, body, contentType: type });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('bodies that are JSON but not an object of the route', async () => {
    const value = fc.oneof(
      fc.jsonValue().filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)),
      fc.constant({}),
    );
    await fc.assert(
      fc.asyncProperty(route, value, async (path, v) => refused(json(path, v))),
      { numRuns: 80 },
    );
  });

  it('a field of the wrong type', async () => {
    await fc.assert(
      fc.asyncProperty(route, fc.nat(), notString, async (path, pick, wrong) => {
        const base: Record<string, unknown> = { ...ROUTES[path] };
        const keys = Object.keys(base);
        base[keys[pick % keys.length] ?? 'prompt'] = wrong;
        await refused(json(path, base));
      }),
      { numRuns: 150 },
    );
  });

  it('out-of-range values: blank prompts, unknown decisions, over-long ids', async () => {
    const bad = fc.oneof(
      fc.constantFrom('', '   ', '\n\t'),
      fc.string({ minLength: 201, maxLength: 400 }),
    );
    await fc.assert(
      fc.asyncProperty(route, bad, async (path, value) => {
        const field = path.includes('approvals') ? 'approvalId' : 'prompt';
        const body: Record<string, unknown> = { ...ROUTES[path], [field]: value };
        if (field === 'prompt' && value.trim().length > 0) body.agent = value; // long ids only
        await refused(json(path, body));
        await refused(json(path, { ...ROUTES[path], decision: value }));
      }),
      { numRuns: 60 },
    );
  });

  it('unknown fields', async () => {
    const key = fc
      .string({ minLength: 1, maxLength: 40 })
      .filter(
        (k) => !(k in ROUTES['/api/agent/run']) && !(k in ROUTES['/api/agent/approvals/resolve']),
      );
    await fc.assert(
      fc.asyncProperty(route, key, fc.jsonValue(), async (path, k, v) => {
        const body = JSON.parse(JSON.stringify(ROUTES[path])) as Record<string, unknown>;
        Object.defineProperty(body, k, { value: v, enumerable: true });
        await refused(json(path, body));
      }),
      { numRuns: 150 },
    );
  });

  it('huge bodies, missing bodies and missing content types', async () => {
    await fc.assert(
      fc.asyncProperty(
        route,
        fc.integer({ min: 257 * 1024, max: 2 * 1024 * 1024 }),
        async (path, size) => {
          await refused(
            json(path, { ...ROUTES[path], feedback: 'x'.repeat(size), prompt: 'x'.repeat(size) }),
          );
        },
      ),
      { numRuns: 12 },
    );
    for (const path of Object.keys(ROUTES) as Route[]) {
      await refused({ path, body: undefined });
      await refused({ path, body: '', contentType: 'application/json' });
      await refused({
        path,
        body: JSON.stringify(ROUTES[path]),
        contentType: 'application/x-www-form-urlencoded',
      });
    }
  });

  it('prototype-poisoning keys', async () => {
    for (const path of Object.keys(ROUTES) as Route[]) {
      const body = JSON.stringify(ROUTES[path]).slice(0, -1);
      await refused({
        path,
        body: `${body},"__proto__":{"x":1}}`,
        contentType: 'application/json',
      });
      await refused({
        path,
        body: `${body},"constructor":{"prototype":{"x":1}}}`,
        contentType: 'application/json',
      });
    }
  });
});

describe('GET routes never answer 500 to odd cursors and ids', () => {
  it('events cursor', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 30 }), async (after) => {
        service.calls.splice(0);
        const res = await fetch(
          `${server.url}/api/runs/r1/events?after=${encodeURIComponent(after)}`,
          {
            headers: auth(),
          },
        );
        const valid = /^\d{1,15}$/.test(after);
        // Valid cursors reach the fake, whose "not this user's run" is a 404.
        expect(res.status).toBe(valid ? 404 : 400);
        expect(service.calls).toEqual(valid ? ['readEvents'] : []);
      }),
      { numRuns: 100 },
    );
  });
});
