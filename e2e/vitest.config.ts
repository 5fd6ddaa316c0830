import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests only (`npm run test:e2e`); `npm test` never starts Chromium.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['e2e/support/build-web.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One Chromium at a time: the machine has two cores.
    fileParallelism: false,
  },
});
