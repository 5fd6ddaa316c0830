import { describe, expect, it } from 'vitest';
import { EXIT } from './cli-io.js';
import { AUDIT, loadCommand, MCP, SERVE, TOKEN, WORKER } from './command-packages.js';
import { reportError } from './report-error.js';
import { createStyle } from './style.js';

const MISSING = 'cadre-test-no-such-package';
// Through a variable, so the type checker does not look for the package.
const load = (specifier: string): Promise<unknown> => import(specifier);

const reported = (error: unknown): { code: number; text: string } => {
  let text = '';
  const code = reportError(error, (chunk) => (text += chunk), createStyle(false));
  return { code, text };
};

describe('commands that need optional packages', () => {
  it('name the missing package and the install command, exit 2', async () => {
    const error = await loadCommand(() => Promise.resolve('never loaded'), {
      needs: 'cadre thing needs',
      packages: ['kysely', MISSING],
      or: ['pg'],
      preload: () => load(MISSING),
    }).catch((caught: unknown) => caught);
    expect(reported(error)).toEqual({
      code: EXIT.setup,
      text: `error cadre thing needs kysely and ${MISSING} (or pg): npm install kysely ${MISSING}\n`,
    });
  });

  it('report a package no loader named as a setup problem too, not a crash', async () => {
    const error = await load(MISSING).catch((caught: unknown) => caught);
    expect(reported(error)).toEqual({
      code: EXIT.setup,
      text: `error ${MISSING} is not installed: npm install ${MISSING}\n`,
    });
  });

  it.each([
    ['serve', SERVE],
    ['worker', WORKER],
    ['token', TOKEN],
    ['audit', AUDIT],
    ['mcp', MCP],
  ])('load what cadre %s needs in a full install', async (_name, needs) => {
    await expect(needs.preload()).resolves.toBeDefined();
    const loaded = await loadCommand(() => Promise.resolve('loaded'), needs);
    expect(loaded).toBe('loaded');
  });
});
