import { defineConfig } from 'vitest/config';

/** `npm run test:corpus`: real agent files kept outside the repository (CADRE_CORPUS_DIR). */
export default defineConfig({
  test: {
    include: ['src/**/*.corpus-test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
  },
});
