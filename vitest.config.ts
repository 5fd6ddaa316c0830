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
    // Most files wait on sockets, child processes and PostgreSQL rather than the CPU: two workers
    // overlap those waits even on 2 cores (vitest's default there is one).
    maxWorkers: 2,
    // One worker runs many files, importing shared modules once instead of once per file: the
    // per-file process start and imports cost more than the tests themselves. Files must leave
    // no global state behind (env, cwd, timers, process listeners): each restores what it changes.
    isolate: false,
  },
});
