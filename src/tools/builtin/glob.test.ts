import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError } from '../../errors/index.js';
import { globTool } from './glob.js';
import { contextFor, makeWorkspace, type TestWorkspace } from './testing/test-support.js';

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
  await ws.write({
    'src/b.ts': '',
    'src/a.ts': '',
    'src/deep/c.ts': '',
    'src/readme.md': '',
    '.github/ci.ts': '',
    'node_modules/pkg/index.ts': '',
    '.git/hooks/x.ts': '',
  });
});
afterEach(() => ws.cleanup());

describe('glob', () => {
  it('returns sorted workspace-relative matches, skipping node_modules and .git', async () => {
    expect(await globTool.execute({ pattern: '**/*.ts' }, ws.ctx)).toBe(
      ['.github/ci.ts', 'src/a.ts', 'src/b.ts', 'src/deep/c.ts'].join('\n'),
    );
  });

  it('searches from path but reports paths relative to the workspace root', async () => {
    expect(await globTool.execute({ pattern: '*.ts', path: 'src' }, ws.ctx)).toBe(
      'src/a.ts\nsrc/b.ts',
    );
  });

  it('reads only as deep as a pattern without ** can match, and still finds what lies there', async () => {
    expect(await globTool.execute({ pattern: '*/*/*.ts' }, ws.ctx)).toBe('src/deep/c.ts');
    expect(await globTool.execute({ pattern: 'src/*' }, ws.ctx)).toBe(
      'src/a.ts\nsrc/b.ts\nsrc/readme.md',
    );
  });

  it('supports brace alternatives', async () => {
    expect(await globTool.execute({ pattern: 'src/{a.ts,readme.md}' }, ws.ctx)).toBe(
      'src/a.ts\nsrc/readme.md',
    );
  });

  it('treats a leading ./ as the base itself', async () => {
    expect(await globTool.execute({ pattern: './src/*.md' }, ws.ctx)).toBe('src/readme.md');
  });

  it('matches a glob that makes picomatch backtrack for minutes, promptly and correctly', async () => {
    // picomatch's RegExp for this glob took 93 s against a 60-character name.
    const name = 'a'.repeat(60);
    await ws.write({ [`long/${name}`]: '', [`long/${name}b`]: '' });
    expect(await globTool.execute({ pattern: 'long/*a*a*a*a*a*a*a*a*b' }, ws.ctx)).toBe(
      `long/${name}b`,
    );
  });

  it('takes parentheses literally instead of as extglobs', async () => {
    await ws.write({ 'doc(1).pdf': '', 'doc.pdf': '', aaa: '' });
    expect(await globTool.execute({ pattern: '*(1).pdf' }, ws.ctx)).toBe('doc(1).pdf');
    expect(await globTool.execute({ pattern: '+(a|aa)' }, ws.ctx)).toBe(
      'No files match +(a|aa) in the workspace root.',
    );
  });

  it.each([
    ['src/f{1..3}.ts', /Invalid glob "src\/f\{1\.\.3\}\.ts": brace ranges/],
    ['*'.repeat(1001), /the pattern is 1001 characters long; the limit is 1000/],
  ])('refuses the glob %s with a reason', async (pattern, reason) => {
    await expect(globTool.execute({ pattern }, ws.ctx)).rejects.toThrow(reason);
  });

  it('says when nothing matches', async () => {
    expect(await globTool.execute({ pattern: '**/*.py' }, ws.ctx)).toBe(
      'No files match **/*.py in the workspace root.',
    );
  });

  it('caps long results with a note', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 530; i += 1) files[`many/f${String(i).padStart(3, '0')}.txt`] = '';
    await ws.write(files);
    const lines = String(await globTool.execute({ pattern: 'many/*.txt' }, ws.ctx)).split('\n');
    expect(lines).toHaveLength(501);
    expect(lines[0]).toBe('many/f000.txt');
    expect(lines.at(-1)).toBe(
      '[truncated: showing 500 of 530 files; use a more specific pattern or path]',
    );
  });

  it.each(['/etc/*', '../*', 'src/../../*', '{..,src}/*'])(
    'refuses the escaping pattern %s',
    async (pattern) => {
      await expect(globTool.execute({ pattern }, ws.ctx)).rejects.toThrow(
        /could reach outside the workspace root/,
      );
    },
  );

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      globTool.execute({ pattern: '**/*' }, contextFor(ws.root, controller.signal)),
    ).rejects.toThrow(CancelledError);
  });

  it('previews the pattern and path', () => {
    expect(globTool.preview?.({ pattern: '**/*.ts', path: 'src' })).toBe(
      'Find files matching **/*.ts in src',
    );
  });
});
