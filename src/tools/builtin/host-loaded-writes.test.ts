import { existsSync } from 'node:fs';
import { readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from './edit-file.js';
import { readFileTool } from './read-file.js';
import { makeWorkspace, type TestWorkspace } from './testing/test-support.js';
import { writeFileTool } from './write-file.js';

// An agent's file tools try to plant what the host loads later: code tools, agent modules,
// MCP settings, the policy, git's config. Each write is refused, naming why.
let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const PLANTS = [
  'tools/pwn.tool.mjs',
  'agents/helper.mjs',
  '.mcp.json',
  '.claude/settings.json',
  '.gemini/settings.json',
  'policy.yaml',
  '.git/config',
  '.git/hooks/post-checkout',
  './tools/../tools/x.tool.ts',
];

describe('file tools never write what the host loads', () => {
  it.each(PLANTS)('write_file %s is refused, and nothing is created', async (target) => {
    await expect(
      writeFileTool.execute({ path: target, content: 'export default 1' }, ws.ctx),
    ).rejects.toThrow(/which agents may not change: .*`cadre trust`/);
    expect(existsSync(path.join(ws.root, target))).toBe(false);
  });

  it('refuses through an absolute path and through a symbolic link to the folder', async () => {
    await ws.write({ 'tools/keep.tool.mjs': 'export default 1;\n' });
    await symlink(path.join(ws.root, 'tools'), path.join(ws.root, 'innocent'));
    const absolute = path.join(ws.root, 'tools', 'new.tool.mjs');
    await expect(writeFileTool.execute({ path: absolute, content: 'x' }, ws.ctx)).rejects.toThrow(
      /under tools\//,
    );
    await expect(
      writeFileTool.execute({ path: 'innocent/keep.tool.mjs', content: 'x' }, ws.ctx),
    ).rejects.toThrow(/under tools\//);
    expect(await readFile(path.join(ws.root, 'tools/keep.tool.mjs'), 'utf8')).toBe(
      'export default 1;\n',
    );
  });

  it('edit_file is refused too, while read_file still reads the code', async () => {
    await ws.write({ 'tools/keep.tool.mjs': 'export default 1;\n' });
    await expect(
      editFileTool.execute(
        { path: 'tools/keep.tool.mjs', old_string: '1', new_string: '2' },
        ws.ctx,
      ),
    ).rejects.toThrow(/Cadre imports code from it/);
    const read = await readFileTool.execute({ path: 'tools/keep.tool.mjs' }, ws.ctx);
    expect(JSON.stringify(read)).toContain('export default 1');
  });

  it('a file merely named like one elsewhere is fine', async () => {
    const result = await writeFileTool.execute({ path: 'src/tools/a.ts', content: 'ok' }, ws.ctx);
    expect(result).toMatchObject({ action: 'created' });
  });
});
