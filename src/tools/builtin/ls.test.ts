import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError, ToolExecutionError } from '../../errors/index.js';
import { lsTool } from './ls.js';
import { contextFor, makeWorkspace, type TestWorkspace } from './testing/test-support.js';

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

describe('ls', () => {
  it('lists directories first, then files with sizes, each group sorted', async () => {
    await ws.write({ 'b.txt': 'hello', 'a.md': '', 'zdir/x': '', 'adir/y': '', '.hidden': '12' });
    await symlink(path.join(ws.root, 'a.md'), path.join(ws.root, 'link'));
    const out = await lsTool.execute({}, ws.ctx);
    expect(out).toBe(
      ['adir/', 'zdir/', '.hidden  2 bytes', 'a.md  0 bytes', 'b.txt  5 bytes', 'link@'].join('\n'),
    );
  });

  it('lists a subdirectory given by path', async () => {
    await ws.write({ 'src/main.ts': 'x'.repeat(1204) });
    expect(await lsTool.execute({ path: 'src' }, ws.ctx)).toBe('main.ts  1,204 bytes');
  });

  it('says when a directory is empty', async () => {
    await mkdir(path.join(ws.root, 'empty'));
    expect(await lsTool.execute({ path: 'empty' }, ws.ctx)).toBe('empty is empty.');
  });

  it('caps long listings with a note', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 620; i += 1) files[`f${String(i).padStart(4, '0')}.txt`] = '';
    await ws.write(files);
    const out = String(await lsTool.execute({}, ws.ctx));
    const lines = out.split('\n');
    expect(lines).toHaveLength(501);
    expect(lines[0]).toBe('f0000.txt  0 bytes');
    expect(lines.at(-1)).toBe(
      '[truncated: showing 500 of 620 entries; list a subdirectory or use glob to narrow the listing]',
    );
  });

  it('explains when the path is a file or missing', async () => {
    await ws.write({ 'a.txt': '' });
    await expect(lsTool.execute({ path: 'a.txt' }, ws.ctx)).rejects.toThrow(
      new ToolExecutionError('a.txt is a file, not a directory; use read_file to read it.'),
    );
    await expect(lsTool.execute({ path: 'nope' }, ws.ctx)).rejects.toThrow(
      'No such file or directory: nope',
    );
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(lsTool.execute({}, contextFor(ws.root, controller.signal))).rejects.toThrow(
      CancelledError,
    );
  });

  it('previews the path', () => {
    expect(lsTool.preview?.({ path: 'src' })).toBe('List src');
    expect(lsTool.preview?.({})).toBe('List .');
  });
});
