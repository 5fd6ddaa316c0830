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
    // One worker process runs many files: the per-file process start and the imports cost more
    // than most tests. Files in one worker share the module cache, the project's modules included
    // (a module mocked with vi.mock stays mocked for later files unless the file resets modules),
    // so a file leaves no global state behind (env, cwd, fake timers, process listeners, module
    // state) and restores what it changes. The source keeps no module-level mutable state.
    isolate: false,
  },
});
