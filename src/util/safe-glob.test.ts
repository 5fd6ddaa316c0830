import { describe, expect, it } from 'vitest';
import { compileSafeGlob } from './safe-glob.js';

/** The paths among `paths` that `glob` matches. */
function matching(glob: string, paths: string[]): string[] {
  const compiled = compileSafeGlob(glob);
  if (!compiled.ok) throw new Error(`did not compile: ${compiled.reason}`);
  return paths.filter((p) => compiled.test(p));
}

describe('compileSafeGlob', () => {
  it.each<[string, string[], string[]]>([
    [
      '**/*.ts',
      ['a.ts', '.github/ci.ts', 'src/deep/c.ts', 'a.tsx', 'src/x.md'],
      ['a.ts', '.github/ci.ts', 'src/deep/c.ts'],
    ],
    ['*.ts', ['a.ts', '.x.ts', 'src/a.ts'], ['a.ts', '.x.ts']],
    ['src/**', ['src/a', 'src/a/b', 'srcx/a'], ['src/a', 'src/a/b']],
    ['a/**/b', ['a/b', 'a/x/b', 'a/x/y/b', 'ab'], ['a/b', 'a/x/b', 'a/x/y/b']],
    ['a**b', ['axyb', 'ax/yb'], ['axyb']],
    ['a?c', ['abc', 'a/c', 'ac'], ['abc']],
    ['[a-c].ts', ['b.ts', 'd.ts'], ['b.ts']],
    ['[!a].ts', ['a.ts', 'b.ts', '/.ts'], ['b.ts']],
    ['[]].ts', ['].ts', 'a.ts'], ['].ts']],
    [
      'src/{a.ts,readme.md}',
      ['src/a.ts', 'src/readme.md', 'src/b.ts'],
      ['src/a.ts', 'src/readme.md'],
    ],
    ['{a,{b,c}}.ts', ['a.ts', 'c.ts', 'd.ts'], ['a.ts', 'c.ts']],
    ['{,x}y', ['y', 'xy', 'zy'], ['y', 'xy']],
    ['a{b}', ['a{b}', 'ab'], ['a{b}']],
    ['{a,b', ['{a,b', 'a'], ['{a,b']],
    ['\\*.ts', ['*.ts', 'a.ts'], ['*.ts']],
    ['*(1).pdf', ['doc(1).pdf', 'doc.pdf'], ['doc(1).pdf']],
    ['a.$^|+.ts', ['a.$^|+.ts', 'ab$^|+.ts'], ['a.$^|+.ts']],
  ])('%s', (glob, paths, expected) => {
    expect(matching(glob, paths)).toEqual(expected);
  });

  it('matches a glob that backtracks catastrophically in picomatch, with the right answer', () => {
    // picomatch took 93 s for this glob against a 60-character name.
    const glob = '*a*a*a*a*a*a*a*a*b';
    expect(matching(glob, ['a'.repeat(250), `${'a'.repeat(249)}b`])).toEqual([
      `${'a'.repeat(249)}b`,
    ]);
  });

  it('compiles many unclosed braces in one pass', () => {
    expect(matching('{'.repeat(900), ['{'.repeat(900)])).toEqual(['{'.repeat(900)]);
  });

  it('refuses brace ranges and over-long globs with a reason', () => {
    expect(compileSafeGlob('f{1..3}.ts')).toEqual({
      ok: false,
      reason: 'brace ranges such as {1..3} are not supported; list them: {1,2,3}',
    });
    expect(compileSafeGlob('*'.repeat(1001))).toEqual({
      ok: false,
      reason: 'the pattern is 1001 characters long; the limit is 1000',
    });
  });
});
