import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError, ToolExecutionError } from '../../errors/index.js';
import { editFileTool } from './edit-file.js';
import { contextFor, makeWorkspace, type TestWorkspace } from './testing/test-support.js';

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
  await ws.write({ 'a.ts': 'const a = 1;\nconst b = 1;\nconst c = 2;\n' });
});
afterEach(() => ws.cleanup());

const content = (): Promise<string> => readFile(path.join(ws.root, 'a.ts'), 'utf8');

describe('edit_file', () => {
  it('replaces a unique occurrence and reports one replacement', async () => {
    const result = await editFileTool.execute(
      { path: 'a.ts', old_string: 'c = 2', new_string: 'c = 3' },
      ws.ctx,
    );
    expect(result).toEqual({ path: 'a.ts', replacements: 1 });
    expect(await content()).toBe('const a = 1;\nconst b = 1;\nconst c = 3;\n');
  });

  it('refuses several occurrences without replace_all, saying how many, and changes nothing', async () => {
    await expect(
      editFileTool.execute({ path: 'a.ts', old_string: '= 1', new_string: '= 9' }, ws.ctx),
    ).rejects.toThrow(
      new ToolExecutionError(
        'old_string occurs 2 times in a.ts; include more surrounding text to make it unique, ' +
          'or set replace_all to true to replace every occurrence.',
      ),
    );
    expect(await content()).toBe('const a = 1;\nconst b = 1;\nconst c = 2;\n');
  });

  it('replaces every occurrence with replace_all', async () => {
    const result = await editFileTool.execute(
      { path: 'a.ts', old_string: '= 1', new_string: '= 9', replace_all: true },
      ws.ctx,
    );
    expect(result).toEqual({ path: 'a.ts', replacements: 2 });
    expect(await content()).toBe('const a = 9;\nconst b = 9;\nconst c = 2;\n');
  });

  it('refuses a missing old_string', async () => {
    await expect(
      editFileTool.execute({ path: 'a.ts', old_string: 'nope', new_string: 'x' }, ws.ctx),
    ).rejects.toThrow(/^old_string was not found in a\.ts/);
  });

  it('keeps $ patterns in new_string literal', async () => {
    await editFileTool.execute({ path: 'a.ts', old_string: '2', new_string: "$&$1$'" }, ws.ctx);
    expect(await content()).toBe("const a = 1;\nconst b = 1;\nconst c = $&$1$';\n");
  });

  it('deletes text when new_string is empty', async () => {
    await editFileTool.execute(
      { path: 'a.ts', old_string: 'const b = 1;\n', new_string: '' },
      ws.ctx,
    );
    expect(await content()).toBe('const a = 1;\nconst c = 2;\n');
  });

  it.each([
    [{ path: 'a.ts', old_string: '', new_string: 'x' }, 'old_string must not be empty.'],
    [{ path: 'a.ts', old_string: 'x', new_string: 'x' }, 'old_string and new_string are identical'],
    [{ path: 'nope.ts', old_string: 'x', new_string: 'y' }, 'No such file or directory: nope.ts'],
  ])('refuses %o', async (args, message) => {
    await expect(editFileTool.execute(args, ws.ctx)).rejects.toThrow(message);
  });

  it('refuses binary files', async () => {
    await ws.write({ 'b.bin': new Uint8Array([65, 0, 66]) });
    await expect(
      editFileTool.execute({ path: 'b.bin', old_string: 'A', new_string: 'C' }, ws.ctx),
    ).rejects.toThrow(/looks like a binary file/);
  });

  it('changes nothing when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      editFileTool.execute(
        { path: 'a.ts', old_string: 'c = 2', new_string: 'c = 3' },
        contextFor(ws.root, controller.signal),
      ),
    ).rejects.toThrow(CancelledError);
    expect(await content()).toContain('c = 2');
  });

  it('is a side effect needing approval, previewed in one line', () => {
    expect(editFileTool.sideEffect).toBe(true);
    expect(editFileTool.defaultApproval).toBe('require');
    expect(
      editFileTool.preview?.({
        path: 'a.ts',
        old_string: 'foo\n  bar',
        new_string: 'baz',
        replace_all: true,
      }),
    ).toBe('Edit a.ts: replace every "foo bar" with "baz"');
  });
});
