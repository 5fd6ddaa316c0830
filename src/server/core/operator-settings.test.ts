import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import type { RunService } from '../run-service-types.js';
import { createRunService } from './create-run-service.js';

const NOTES_SERVER = fileURLToPath(
  new URL('../../mcp/client/testing/notes-mcp-server.mjs', import.meta.url),
);

let dir: string;
let home: string;
let store: Store;
let service: RunService;
let userId: string;
/** Scripted: answers at once; what matters is which tools each request offered. */
const model = new ScriptedModel(() => ({ parts: [{ text: 'done' }] }));

/** The operator's personal MCP server: it writes `marker` the moment anything starts it. */
const personal = (marker: string) => ({
  command: process.execPath,
  args: [NOTES_SERVER, '--stdio'],
  env: { NOTES_STARTS: marker },
});
const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-operator-settings-'));
  home = join(dir, 'operator-home');
  await mkdir(join(home, '.gemini'), { recursive: true });
  await writeFile(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({ mcpServers: { personal: personal(join(dir, 'gemini-started')) } }),
  );
  const project = join(dir, 'project');
  await writeFile(
    join(home, '.claude.json'),
    JSON.stringify({
      mcpServers: { mine: personal(join(dir, 'claude-user-started')) },
      projects: {
        [project]: { mcpServers: { local: personal(join(dir, 'claude-local-started')) } },
      },
    }),
  );
  // Agents that take every server they are offered (no tool list).
  await mkdir(join(project, '.gemini', 'agents'), { recursive: true });
  await mkdir(join(project, '.claude', 'agents'), { recursive: true });
  const agent = (name: string) =>
    `---\nname: ${name}\ndescription: Takes what it is given.\n---\nHelp.\n`;
  await writeFile(join(project, '.gemini', 'agents', 'gem.md'), agent('gem'));
  await writeFile(join(project, '.claude', 'agents', 'claw.md'), agent('claw'));
  store = await openStore({ url: join(dir, 'cadre.db') });
  service = await createRunService({
    store,
    cwd: project,
    env: { HOME: home },
    modelClient: model,
    agentDirs: ['.gemini/agents', '.claude/agents'],
  });
  userId = (await store.auth.ensureUser('ann')).id;
}, 30_000);
afterAll(async () => {
  await service?.close();
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the operator's own settings under the server (real run service, scripted model responses)", () => {
  it("a signed-in user's run never gets the MCP servers of the operator's ~/.gemini/settings.json or ~/.claude.json", async () => {
    for (const agent of ['gem', 'claw']) {
      const done = await service.run({ userId, prompt: 'List your tools', agent });
      expect(done.status).toBe('completed');
    }
    const offered = model.requests.flatMap((r) => r.tools.map((t) => t.name));
    expect(model.requests).toHaveLength(2);
    expect(offered.filter((name) => /^(personal|mine|local)__/.test(name))).toEqual([]);
    // Nothing even started them.
    for (const marker of ['gemini-started', 'claude-user-started', 'claude-local-started'])
      expect(await exists(join(dir, marker))).toBe(false);
  });
});
