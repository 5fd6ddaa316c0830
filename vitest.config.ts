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
    // One worker process runs many files: the per-file process start and the imports of
    // dependencies (fastify, zod, the SDKs) cost more than most tests. Each file still gets its
    // own copy of the project's modules, but the process is shared: a file must leave no global
    // state behind (env, cwd, fake timers, process listeners) and restores what it changes.
    isolate: false,
  },
});
