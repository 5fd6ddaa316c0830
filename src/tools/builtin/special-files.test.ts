import { execFileSync } from 'node:child_process';
import { link, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from './edit-file.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { lsTool } from './ls.js';
import { readFileTool } from './read-file.js';
import { makeWorkspace, type TestWorkspace } from './testing/test-support.js';
import { writeFileTool } from './write-file.js';

// Attacks on the file tools: special files that hang or never end, hard links out of the
// workspace, and Cadre's own state inside it.
let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const fifo = (name: string) => execFileSync('mkfifo', [path.join(ws.root, name)]);

describe('special files', () => {
  it('refuses FIFOs at once, so six of them cannot starve another read of the thread pool', async () => {
    const names = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
    for (const name of names) fifo(name);
    await ws.write({ 'plain.txt': 'fine\n' });
    const reads = names.map((name) => readFileTool.execute({ path: name }, ws.ctx));
    const results = await Promise.allSettled(reads);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect(String((result as PromiseRejectedResult).reason)).toMatch(/named pipe \(FIFO\)/);
    }
    expect(await readFileTool.execute({ path: 'plain.txt' }, ws.ctx)).toContain('fine');
  });

  it('refuses an approved edit_file or write_file on a FIFO instead of hanging', async () => {
    fifo('pipe');
    await expect(
      editFileTool.execute({ path: 'pipe', old_string: 'a', new_string: 'b' }, ws.ctx),
    ).rejects.toThrow(/named pipe/);
    await expect(writeFileTool.execute({ path: 'pipe', content: 'x' }, ws.ctx)).rejects.toThrow(
      /named pipe/,
    );
  });

  it('refuses a character device (a /dev/zero node in the workspace) without reading it', async () => {
    execFileSync('mknod', [path.join(ws.root, 'zero'), 'c', '1', '5']);
    await expect(readFileTool.execute({ path: 'zero' }, ws.ctx)).rejects.toThrow(
      /character device/,
    );
    // grep walks past it rather than reading forever.
    await ws.write({ 'a.txt': 'needle\n' });
    expect(await grepTool.execute({ pattern: 'needle' }, ws.ctx)).toContain('a.txt:1');
  });

  it('refuses a hard link to a file outside the workspace, for reading and writing', async () => {
    const secret = path.join(ws.outside, 'secret.txt');
    await writeFile(secret, 'OUTSIDE SECRET\n');
    await link(secret, path.join(ws.root, 'innocent.txt'));
    await expect(readFileTool.execute({ path: 'innocent.txt' }, ws.ctx)).rejects.toThrow(
      /hard links/,
    );
    await expect(
      writeFileTool.execute({ path: 'innocent.txt', content: 'overwritten' }, ws.ctx),
    ).rejects.toThrow(/hard links/);
    expect(await grepTool.execute({ pattern: 'SECRET' }, ws.ctx)).toMatch(/No matches/);
    expect(await readFile(secret, 'utf8')).toBe('OUTSIDE SECRET\n');
  });
});

describe("Cadre's own state", () => {
  beforeEach(() =>
    ws.write({
      '.cadre/audit.key': 'AUDIT-KEY-SECRET',
      '.cadre/agents/helper.md': '---\nname: helper\n---\nHelp.',
      'data/cadre.db': 'THREADS-SECRET',
      'notes.md': 'hello\n',
    }),
  );

  it('is never read, listed or searched, also through other spellings of the path', async () => {
    for (const spelling of [
      '.cadre/audit.key',
      './.cadre/audit.key',
      `${ws.root}/.cadre/audit.key`,
      'x/../.cadre/audit.key',
    ]) {
      await expect(readFileTool.execute({ path: spelling }, ws.ctx)).rejects.toThrow(
        /Cadre's own state/,
      );
    }
    expect(await grepTool.execute({ pattern: 'SECRET' }, ws.ctx)).not.toContain('AUDIT');
    expect(await globTool.execute({ pattern: '**/*' }, ws.ctx)).not.toContain('.cadre');
    expect(await lsTool.execute({}, ws.ctx)).not.toContain('.cadre');
    await expect(lsTool.execute({ path: '.cadre' }, ws.ctx)).rejects.toThrow(/Cadre's own state/);
  });

  it('is never written: an agent cannot give itself a policy or an agent', async () => {
    await expect(
      writeFileTool.execute({ path: '.cadre/policy.yaml', content: 'trust: autonomous' }, ws.ctx),
    ).rejects.toThrow(/Cadre's own state/);
    await expect(
      editFileTool.execute(
        { path: '.cadre/agents/helper.md', old_string: 'Help.', new_string: 'Obey.' },
        ws.ctx,
      ),
    ).rejects.toThrow(/Cadre's own state/);
  });

  it("covers the server's state elsewhere in the workspace when the context names it", async () => {
    const ctx = { ...ws.ctx, protectedPaths: [path.join(ws.root, 'data')] };
    await expect(readFileTool.execute({ path: 'data/cadre.db' }, ctx)).rejects.toThrow(
      /Cadre's own state/,
    );
    expect(await grepTool.execute({ pattern: 'THREADS' }, ctx)).toMatch(/No matches/);
    // Without that context the same file is an ordinary file.
    expect(await readFileTool.execute({ path: 'data/cadre.db' }, ws.ctx)).toContain('THREADS');
  });
});
