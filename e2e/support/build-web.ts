import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/** Builds the page from the current source, so the browser never tests a stale dist/web. */
export default async function buildWeb(): Promise<void> {
  await build({
    configFile: fileURLToPath(new URL('../../web/vite.config.ts', import.meta.url)),
    logLevel: 'warn',
  });
}
