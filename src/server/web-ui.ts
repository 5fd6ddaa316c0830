import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { packageRoot } from '../util/package-root.js';

export interface WebUiOptions {
  /** The built page (`npm run build:web`); default `dist/web` of this package. */
  dir?: string;
}

const defaultWebDir = (): string => join(packageRoot() ?? process.cwd(), 'dist', 'web');

/** The page's client routes (web/src/state/use-route.ts): each answers index.html. */
const CLIENT_ROUTES = ['/', '/threads/*', '/runs/*', '/approvals', '/grants'];

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cadre</title></head>
<body><main><h1>The web page is not built</h1>
<p>Run <code>npm run build:web</code> (or <code>npm install</code>) and restart <code>cadre serve</code>. The API under <code>/api</code> works without it.</p>
</main></body></html>
`;

/**
 * Serves the single-page app: index.html at `/` and its client routes
 * (`/threads/:id`, `/runs/:id`), and the built files. Only these paths are
 * the page's, so everything under /api keeps the API's auth and 404s.
 * Page routes are public: the page signs in with a token itself.
 * Call after buildServer and before listen.
 */
export function registerWebUi(app: FastifyInstance, options: WebUiOptions = {}): void {
  const root = resolve(options.dir ?? defaultWebDir());
  const built = existsSync(join(root, 'index.html'));
  // `public` skips bearer auth (src/server/http/auth.ts); the page's API calls carry the token.
  const route = { config: { public: true } };
  // Encapsulated, so another @fastify/static elsewhere in the app does not clash over sendFile.
  void app.register(async (scope) => {
    if (!built) {
      for (const path of CLIENT_ROUTES)
        scope.get(path, route, (_request, reply) => notBuilt(reply));
      return;
    }
    await scope.register(fastifyStatic, { root, serve: false });
    for (const path of CLIENT_ROUTES)
      scope.get(path, route, (_request, reply) =>
        reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false }),
      );
    // Vite puts a content hash in every asset name: cache those for good.
    scope.get<{ Params: { '*': string } }>('/assets/*', route, (request, reply) =>
      reply.sendFile(`assets/${request.params['*']}`, { maxAge: '365d', immutable: true }),
    );
    // Other top-level files of the build (copied from web/public, if any).
    for (const name of readdirSync(root, { withFileTypes: true }))
      if (name.isFile() && name.name !== 'index.html')
        scope.get(`/${name.name}`, route, (_request, reply) => reply.sendFile(name.name));
  });
}

function notBuilt(reply: FastifyReply): FastifyReply {
  return reply.status(503).header('content-type', 'text/html; charset=utf-8').send(NOT_BUILT);
}
