import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'examples/**/*.test.ts', 'web/**/*.test.ts'],
    testTimeout: 20_000,
    // Set-up and clean-up hooks start servers and processes: a loaded 2-core machine needs room.
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
