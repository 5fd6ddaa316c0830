import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CliIO } from './cli-io.js';
import { packageVersion } from './package-version.js';
import { runCli } from './program.js';

const manifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

describe('cadre --version', () => {
  it("prints the version of Cadre's package.json", async () => {
    const out: string[] = [];
    const io: CliIO = {
      stdout: (text) => out.push(text),
      stderr: () => undefined,
      env: {},
      cwd: '/',
      isTTY: false,
    };
    expect(packageVersion()).toBe(manifest.version);
    expect(await runCli(['--version'], io)).toBe(0);
    expect(out.join('').trim()).toBe(manifest.version);
  });
});
