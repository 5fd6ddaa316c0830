import { defineConfig } from 'vitest/config';

/** Suites that start, kill and restart several `cadre serve` processes: slow, so kept apart. */
export const DURABILITY_SUITES = ['src/server/durability-*.test.ts'];

/** `npm run test:durability`, run by CI beside `npm test`. */
export default defineConfig({
  test: {
    include: DURABILITY_SUITES,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
