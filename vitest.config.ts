import { defineConfig } from 'vitest/config';
import { DURABILITY_SUITES } from './vitest.durability.config.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'examples/**/*.test.ts', 'web/**/*.test.ts'],
    // Multi-process kill, cluster and disconnect suites: `npm run test:durability` (CI runs both).
    exclude: ['**/node_modules/**', ...DURABILITY_SUITES],
    testTimeout: 20_000,
    // Set-up and clean-up hooks start servers and processes: a loaded 2-core machine needs room.
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
