import { defineConfig } from 'vitest/config';

/**
 * `npm run test:package` (after a build): packs the package, installs the
 * tarball into a temporary prefix from npm's registry or cache, and runs the
 * installed `cadre` outside the checkout. Slow and networked: not in `npm test`.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.package-test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
