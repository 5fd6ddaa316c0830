import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webDir = fileURLToPath(new URL('.', import.meta.url));

// Built into dist/web at install time; `cadre serve` serves it from there.
export default defineConfig({
  root: webDir,
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // Nothing is fetched at run time: no CDN, no external fonts.
    assetsInlineLimit: 0,
  },
  server: {
    // `vite --config web/vite.config.ts` against a local `cadre serve`.
    proxy: { '/api': 'http://127.0.0.1:8787', '/healthz': 'http://127.0.0.1:8787' },
  },
});
