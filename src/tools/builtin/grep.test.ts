import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError, ToolExecutionError } from '../../errors/index.js';
import { grepTool } from './grep.js';
import { contextFor, makeWorkspace, type TestWorkspace } from './testing/test-support.js';

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
  await ws.write({
    'src/a.ts': 'const x = 1;\n// TODO: fix\nfunction main() {}\n',
    'src/sub/b.ts': 'todo lowercase\nnothing\n',
    'notes.md': 'TODO write notes\n',
    'node_modules/pkg/index.js': 'TODO in a dependency\n',
    '.git/config': 'TODO in git\n',
    'bin.dat': new Uint8Array([...Buffer.from('TODO '), 0, 1, 2]),
    'huge.txt': `TODO\n${'z'.repeat(1024 * 1024)}`,
  });
});
afterEach(() => ws.cleanup());

describe('grep', () => {
  it('prints file:line: text, skipping node_modules, .git, binary and huge files', async () => {
    expect(await grepTool.execute({ pattern: 'TODO' }, ws.ctx)).toBe(
      'notes.md:1: TODO write notes\nsrc/a.ts:2: // TODO: fix',
    );
  });

  it('matches case-insensitively on request', async () => {
    expect(
      await grepTool.execute({ pattern: 'todo', path: 'src', case_insensitive: true }, ws.ctx),
    ).toBe('src/a.ts:2: // TODO: fix\nsrc/sub/b.ts:1: todo lowercase');
  });

  it('uses JavaScript regular expressions and accepts a file as path', async () => {
    expect(
      await grepTool.execute({ pattern: 'function\\s+\\w+\\(', path: 'src/a.ts' }, ws.ctx),
    ).toBe('src/a.ts:3: function main() {}');
  });

  it('does not invent an empty line after a trailing newline', async () => {
    expect(await grepTool.execute({ pattern: '^$', path: 'notes.md' }, ws.ctx)).toBe(
      'No matches for /^$/ in notes.md.',
    );
  });

  it('says when nothing matches', async () => {
    expect(await grepTool.execute({ pattern: 'absent', path: 'src' }, ws.ctx)).toBe(
      'No matches for /absent/ in src.',
    );
  });

  it('reports an invalid regular expression clearly', async () => {
    await expect(grepTool.execute({ pattern: 'foo(' }, ws.ctx)).rejects.toThrow(
      new ToolExecutionError('Invalid regular expression "foo(": Unterminated group'),
    );
  });

  it('runs the ReDoS pattern ^(a+)+$ on a 40-character line promptly, with the right result', async () => {
    // A backtracking RegExp needs about 2^40 steps for the first line and froze the server.
    await ws.write({ 'redos.txt': `${'a'.repeat(40)}!\n${'a'.repeat(40)}\n` });
    expect(await grepTool.execute({ pattern: '^(a+)+$', path: 'redos.txt' }, ws.ctx)).toBe(
      `redos.txt:2: ${'a'.repeat(40)}`,
    );
  });

  it('refuses backreferences and lookaround with an error naming the construct', async () => {
    await expect(grepTool.execute({ pattern: '(a)\\1' }, ws.ctx)).rejects.toThrow(
      new ToolExecutionError(
        'Invalid regular expression "(a)\\1": the backreference \\1 is not supported: patterns ' +
          'run on a linear-time engine (RE2), which has no backreferences or lookaround',
      ),
    );
    await expect(grepTool.execute({ pattern: 'TODO(?= write)' }, ws.ctx)).rejects.toThrow(
      /the lookahead \(\?=…\) is not supported/,
    );
  });

  it('refuses over-long patterns', async () => {
    await expect(grepTool.execute({ pattern: 'a'.repeat(1001) }, ws.ctx)).rejects.toThrow(
      /the pattern is 1001 characters long; the limit is 1000/,
    );
  });

  it('caps matches with a note counting all of them', async () => {
    await ws.write({ 'many.txt': 'hit\n'.repeat(450) });
    const lines = String(
      await grepTool.execute({ pattern: '^hit$', path: 'many.txt' }, ws.ctx),
    ).split('\n');
    expect(lines).toHaveLength(201);
    expect(lines[199]).toBe('many.txt:200: hit');
    expect(lines.at(-1)).toBe(
      '[truncated: showing 200 of 450 matching lines; narrow the pattern or the path]',
    );
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      grepTool.execute({ pattern: 'x' }, contextFor(ws.root, controller.signal)),
    ).rejects.toThrow(CancelledError);
  });

  it('previews the pattern and path', () => {
    expect(grepTool.preview?.({ pattern: 'TODO', case_insensitive: true })).toBe(
      'Search for /TODO/i in .',
    );
  });
});
