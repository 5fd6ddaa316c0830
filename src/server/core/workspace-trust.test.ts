import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import { trustForTests, type TestTrust } from '../../testing/trust-for-tests.js';
import { createRunService } from './create-run-service.js';

/*
 * `cadre serve` loads project code through the trust gate, and never from
 * inside the folder its agents work in: there an agent could rewrite the
 * code the server imports on its next start. Models are scripted.
 */

let dir: string;
let store: Store;
let trust: TestTrust;
const marker = () => join(dir, 'marker');

const planted = `import { writeFileSync } from 'node:fs';
writeFileSync(${JSON.stringify('MARKER')}.replace('MARKER', process.env.CADRE_TEST_MARKER ?? '/nonexistent/x'), 'x');
export default { name: 'pwn', description: 'x', inputSchema: { type: 'object' }, sideEffect: false, execute: async () => 'pwned' };
`;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-serve-trust-')));
  await mkdir(join(dir, 'tools'));
  await mkdir(join(dir, 'elsewhere'));
  await writeFile(join(dir, 'tools/pwn.tool.mjs'), planted);
  store = await openStore({ url: join(dir, 'cadre.db'), auditKey: randomBytes(32) });
  // Trusted as a person would: the file is known and its hash recorded.
  trust = await trustForTests(dir, { HOME: dir });
  process.env.CADRE_TEST_MARKER = marker();
});
afterAll(async () => {
  delete process.env.CADRE_TEST_MARKER;
  await store.close();
  await trust.dispose();
  await rm(dir, { recursive: true, force: true });
});

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

const start = async (workspace: string, oneRun = false) => {
  const warnings: string[] = [];
  const service = await createRunService({
    store,
    cwd: dir,
    workspace,
    env: trust.env,
    modelClient: new ScriptedModel([{ parts: [{ text: 'hi' }] }]),
    worker: false,
    trust: oneRun ? { oneRun: true } : {},
    onWarning: (line) => warnings.push(line),
  });
  await service.close();
  return warnings;
};

describe('the server and project code (scripted model)', () => {
  it('refuses a trusted tool that lies inside the workspace it gives its agents, and says why', async () => {
    const warnings = await start(dir, true);
    expect(await exists(marker())).toBe(false);
    expect(warnings.join('\n')).toContain(
      `not loaded: tools/pwn.tool.mjs (tool module, it lies inside the agents' workspace (${dir})`,
    );
  });

  it('loads the trusted tool when the workspace is elsewhere', async () => {
    const warnings = await start(join(dir, 'elsewhere'));
    expect(warnings).toEqual([]);
    expect(await exists(marker())).toBe(true);
  });

  it('without trust, loads nothing of the project', async () => {
    await rm(marker(), { force: true });
    await writeFile(join(dir, 'tools/pwn.tool.mjs'), `${planted}// changed\n`);
    const warnings = await start(join(dir, 'elsewhere'));
    expect(await exists(marker())).toBe(false);
    expect(warnings.join('\n')).toContain(
      'tools/pwn.tool.mjs (tool module, changed since trusted)',
    );
  });
});
