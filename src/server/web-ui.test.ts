import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from './http/build-server.js';
import { auth, fakeService, fakeTokens, type TestServer } from './http/testing/test-support.js';
import { registerWebUi } from './web-ui.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const INDEX = '<!doctype html><title>Cadre</title><div id="root"></div>';

async function builtPage(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cadre-web-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), INDEX);
  await writeFile(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  return dir;
}

/** The API over a fake service, plus the page; registerWebUi runs before listen, as in `cadre serve`. */
async function startWithUi(dir: string): Promise<TestServer> {
  const app = buildServer({ service: fakeService(), store: fakeTokens, log: { level: 'silent' } });
  registerWebUi(app, { dir });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, logs: () => '', close: () => app.close() };
}

describe('registerWebUi: the page at / beside the API', () => {
  it('serves index.html at / and for client routes, without a token', async () => {
    const dir = await builtPage();
    server = await startWithUi(dir);
    for (const path of ['/', '/threads/t1', '/runs/r1', '/approvals', '/grants']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(INDEX);
    }
  });

  it('serves hashed assets with a long cache and answers 404 for a missing file', async () => {
    server = await startWithUi(await builtPage());
    const asset = await fetch(`${server.url}/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toMatch(/immutable/);
    expect(await asset.text()).toBe('console.log(1)');
    const missing = await fetch(`${server.url}/assets/nope.js`);
    expect(missing.status).toBe(404);
  });

  it('serves nothing outside its folder', async () => {
    const dir = await builtPage();
    await writeFile(join(dir, '..', 'cadre-web-secret.txt'), 'secret');
    server = await startWithUi(dir);
    for (const url of [
      '/../cadre-web-secret.txt',
      '/%2e%2e/cadre-web-secret.txt',
      '/..%2fcadre-web-secret.txt',
    ]) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.body).not.toContain('secret');
    }
  });

  it('never answers the page for /api or other paths: they keep the API auth and JSON 404', async () => {
    server = await startWithUi(await builtPage());
    const unknown = await fetch(`${server.url}/api/nope`, { headers: auth() });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await fetch(`${server.url}/api/nope`)).status).toBe(401);
    expect((await fetch(`${server.url}/elsewhere`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/threads`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/threads`, { headers: auth() })).status).toBe(200);
  });

  it('says the page is not built when the folder is missing', async () => {
    server = await startWithUi(join(tmpdir(), 'cadre-web-missing-folder'));
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build:web');
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
