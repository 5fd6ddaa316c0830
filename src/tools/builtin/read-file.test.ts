import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError, ToolExecutionError } from '../../errors/index.js';
import { readFileTool } from './read-file.js';
import { contextFor, makeWorkspace, type TestWorkspace } from './testing/test-support.js';

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const numbered = (n: number): string =>
  Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('read_file', () => {
  it('returns every line with a 1-based number prefix', async () => {
    await ws.write({ 'a.txt': 'alpha\r\nbeta\ngamma\n' });
    expect(await readFileTool.execute({ path: 'a.txt' }, ws.ctx)).toBe(
      '1\talpha\n2\tbeta\n3\tgamma',
    );
  });

  it('keeps a last line without trailing newline and pads numbers to one width', async () => {
    await ws.write({ 'a.txt': numbered(9) + 'ten' });
    const out = String(await readFileTool.execute({ path: 'a.txt', start_line: 8 }, ws.ctx));
    expect(out).toBe(' 8\tline 8\n 9\tline 9\n10\tten');
  });

  it('returns an inclusive line range', async () => {
    await ws.write({ 'a.txt': numbered(50) });
    expect(
      await readFileTool.execute({ path: 'a.txt', start_line: 10, end_line: 12 }, ws.ctx),
    ).toBe('10\tline 10\n11\tline 11\n12\tline 12');
  });

  it('clamps end_line past the end', async () => {
    await ws.write({ 'a.txt': numbered(3) });
    expect(await readFileTool.execute({ path: 'a.txt', start_line: 3, end_line: 99 }, ws.ctx)).toBe(
      '3\tline 3',
    );
  });

  it.each([
    [{ start_line: 5 }, 'start_line 5 is past the end of a.txt, which has 3 lines.'],
    [
      { start_line: 3, end_line: 2 },
      'end_line (2) is before start_line (3); both are 1-based and inclusive.',
    ],
  ])('refuses the bad range %o', async (range, message) => {
    await ws.write({ 'a.txt': numbered(3) });
    await expect(readFileTool.execute({ path: 'a.txt', ...range }, ws.ctx)).rejects.toThrow(
      new ToolExecutionError(message),
    );
  });

  it('caps long files at 2,000 lines and says where to continue', async () => {
    await ws.write({ 'big.txt': numbered(2500) });
    const lines = String(await readFileTool.execute({ path: 'big.txt' }, ws.ctx)).split('\n');
    expect(lines).toHaveLength(2001);
    expect(lines[1999]).toBe('2000\tline 2000');
    expect(lines[2000]).toBe(
      '[truncated: showing 2,000 of 2,500 lines; pass start_line=2001 to read on]',
    );
  });

  it('caps total characters even when the line count is small', async () => {
    await ws.write({ 'wide.txt': `${'x'.repeat(1_500)}\n`.repeat(200) });
    const out = String(await readFileTool.execute({ path: 'wide.txt' }, ws.ctx));
    expect(out.length).toBeLessThanOrEqual(100_000 + 200);
    expect(out).toMatch(/\[truncated: showing \d+ of 200 lines; pass start_line=\d+ to read on\]$/);
  });

  it('clips a single huge line instead of dropping it', async () => {
    await ws.write({ 'min.js': 'y'.repeat(5_000) });
    const out = String(await readFileTool.execute({ path: 'min.js' }, ws.ctx));
    expect(out).toBe(`1\t${'y'.repeat(2_000)}… [3,000 more characters]`);
  });

  it('refuses binary files with a clear message', async () => {
    await ws.write({ 'img.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]) });
    await expect(readFileTool.execute({ path: 'img.png' }, ws.ctx)).rejects.toThrow(
      /img\.png looks like a binary file/,
    );
  });

  it('explains directories, missing and empty files', async () => {
    await ws.write({ 'dir/x': '', 'empty.txt': '' });
    await expect(readFileTool.execute({ path: 'dir' }, ws.ctx)).rejects.toThrow(
      'dir is a directory; use ls to list it.',
    );
    await expect(readFileTool.execute({ path: 'nope.txt' }, ws.ctx)).rejects.toThrow(
      'No such file or directory: nope.txt',
    );
    expect(await readFileTool.execute({ path: 'empty.txt' }, ws.ctx)).toBe('empty.txt is empty.');
  });

  it('stops when the signal is aborted', async () => {
    await ws.write({ 'a.txt': 'a' });
    const controller = new AbortController();
    controller.abort();
    await expect(
      readFileTool.execute({ path: 'a.txt' }, contextFor(ws.root, controller.signal)),
    ).rejects.toThrow(CancelledError);
  });

  it('previews the path and range', () => {
    expect(readFileTool.preview?.({ path: 'a.ts' })).toBe('Read a.ts');
    expect(readFileTool.preview?.({ path: 'a.ts', start_line: 3, end_line: 9 })).toBe(
      'Read a.ts (lines 3–9)',
    );
  });
});
