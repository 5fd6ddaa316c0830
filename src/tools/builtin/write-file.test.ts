import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError } from '../../errors/index.js';
import { contextFor, makeWorkspace, type TestWorkspace } from './testing/test-support.js';
import { writeFileTool } from './write-file.js';

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

describe('write_file', () => {
  it('creates a file and its parent directories, reporting bytes', async () => {
    const result = await writeFileTool.execute(
      { path: 'notes/deep/todo.md', content: 'héllo' },
      ws.ctx,
    );
    expect(result).toEqual({ path: 'notes/deep/todo.md', action: 'created', bytesWritten: 6 });
    expect(await readFile(path.join(ws.root, 'notes/deep/todo.md'), 'utf8')).toBe('héllo');
  });

  it('overwrites an existing file and says so', async () => {
    await ws.write({ 'a.txt': 'old content' });
    const result = await writeFileTool.execute({ path: 'a.txt', content: 'new' }, ws.ctx);
    expect(result).toEqual({ path: 'a.txt', action: 'overwrote', bytesWritten: 3 });
    expect(await readFile(path.join(ws.root, 'a.txt'), 'utf8')).toBe('new');
  });

  it('accepts an absolute path inside the workspace', async () => {
    const result = await writeFileTool.execute(
      { path: path.join(ws.root, 'abs.txt'), content: '' },
      ws.ctx,
    );
    expect(result).toEqual({ path: 'abs.txt', action: 'created', bytesWritten: 0 });
  });

  it('refuses to replace a directory', async () => {
    await ws.write({ 'dir/x': '' });
    await expect(writeFileTool.execute({ path: 'dir', content: 'x' }, ws.ctx)).rejects.toThrow(
      'dir is a directory; write_file only writes files.',
    );
  });

  it('writes nothing when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      writeFileTool.execute(
        { path: 'a.txt', content: 'x' },
        contextFor(ws.root, controller.signal),
      ),
    ).rejects.toThrow(CancelledError);
    await expect(readFile(path.join(ws.root, 'a.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('is a side effect needing approval, previewed in one line', () => {
    expect(writeFileTool.sideEffect).toBe(true);
    expect(writeFileTool.defaultApproval).toBe('require');
    expect(writeFileTool.preview?.({ path: 'notes/todo.md', content: 'x'.repeat(1204) })).toBe(
      'Write 1,204 bytes to notes/todo.md',
    );
  });
});
