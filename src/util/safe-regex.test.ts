import { describe, expect, it } from 'vitest';
import { MAX_PATTERN_CHARS, compileSafePattern, type SafePatternResult } from './safe-regex.js';

const HOSTILE_LINE = `${'a'.repeat(40)}!`;

function tester(pattern: string, flags = ''): (input: string) => boolean {
  const compiled = compileSafePattern(pattern, flags);
  if (!compiled.ok) throw new Error(`did not compile: ${compiled.reason}`);
  return (input) => compiled.test(input);
}

const reasonOf = (result: SafePatternResult): string => (result.ok ? 'compiled' : result.reason);

describe('compileSafePattern', () => {
  it('runs a catastrophic-backtracking pattern in linear time, with the right answers', () => {
    // A backtracking RegExp takes minutes on this 41-character line.
    const test = tester('^(a+)+$');
    expect(test(HOSTILE_LINE)).toBe(false);
    expect(test('a'.repeat(40))).toBe(true);
    expect(tester('(x+x+)+y')(`${'x'.repeat(5_000)}`)).toBe(false);
  });

  it('matches like RegExp.test for everyday JavaScript syntax', () => {
    expect(tester('function\\s+\\w+\\(')('function main() {}')).toBe(true);
    expect(tester('todo', 'i')('// TODO: fix')).toBe(true);
    expect(tester('^$')('')).toBe(true);
    expect(tester('^$')('x')).toBe(false);
    expect(tester('\\u0041\\x42')('AB')).toBe(true);
    expect(tester('(?<word>\\w+)@', 'u')('ann@x')).toBe(true);
    expect(tester('[(?=]x')('(x')).toBe(true);
    expect(tester('^a.c$', 's')('a\nc')).toBe(true);
    expect(tester('^c', 'm')('a\nc')).toBe(true);
  });

  it.each([
    ['(a)\\1', 'the backreference \\1 is not supported'],
    ['(?<n>a)\\k<n>', 'the named backreference \\k<…> is not supported'],
    ['foo(?=bar)', 'the lookahead (?=…) is not supported'],
    ['foo(?!bar)', 'the lookahead (?!…) is not supported'],
    ['(?<=foo)bar', 'the lookbehind (?<=…) is not supported'],
    ['(?<!foo)bar', 'the lookbehind (?<!…) is not supported'],
  ])('names the construct the linear-time engine lacks: %s', (pattern, reason) => {
    const result = reasonOf(compileSafePattern(pattern));
    expect(result).toContain(reason);
    expect(result).toContain('linear-time engine (RE2)');
  });

  it('reports JavaScript syntax errors as RegExp does, without repeating the pattern', () => {
    expect(reasonOf(compileSafePattern('foo('))).toBe('Unterminated group');
  });

  it('refuses what RE2 cannot compile, saying why', () => {
    expect(reasonOf(compileSafePattern('a{1001}'))).toBe(
      'the linear-time engine (RE2) cannot run it: invalid repeat count: `{1001}`',
    );
  });

  it('caps the pattern length and the compiled program size', () => {
    expect(reasonOf(compileSafePattern('a'.repeat(MAX_PATTERN_CHARS)))).toBe('compiled');
    expect(reasonOf(compileSafePattern('a'.repeat(MAX_PATTERN_CHARS + 1)))).toBe(
      'the pattern is 1001 characters long; the limit is 1000',
    );
    expect(reasonOf(compileSafePattern('\\w{0,999}\\d{0,999}x'))).toMatch(
      /^the pattern expands to \d+ instructions; the limit is 2000/,
    );
  });

  it('refuses flags that make test() stateful or change the syntax', () => {
    expect(reasonOf(compileSafePattern('x', 'g'))).toBe('the flag "g" is not supported');
    expect(reasonOf(compileSafePattern('x', 'v'))).toBe('the flag "v" is not supported');
  });
});
