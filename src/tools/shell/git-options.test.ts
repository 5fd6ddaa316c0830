import { describe, expect, it } from 'vitest';
import { checkCommand, parseCommandPattern } from './command-patterns.js';
import { refuseGitOptions } from './git-options.js';

const allowed = (command: string, ...patterns: string[]) =>
  checkCommand(
    command,
    patterns.map((p) => parseCommandPattern(p, 'cadre')),
  );

describe('git options that turn an allowed git command into something else', () => {
  it.each([
    // Each of these was tried against `git log:*` / `git diff:*` and wrote files or ran sh.
    [`git log -1 --format="[diff]%n%x09external = sh -c 'touch M' x" --output=.git/config`],
    ['git log --output=/outside/file'],
    ['git log --out=/outside/file'],
    ['git log -p --ext-diff -1'],
    ['git diff --no-index /outside/secret /dev/null'],
    ['git diff --no-index ../secret a.txt'],
    ['git -c core.fsmonitor="sh -c id" status'],
    ['git -C /etc log'],
    ['git --git-dir=/other/.git log'],
    ['git --work-tree=/ status'],
    ['git grep -O"sh -c id" x'],
    ['git rebase -x "sh -c id" HEAD~1'],
    ['git fetch --upload-pack="sh -c id" origin'],
    ['git clone -u "sh -c id" x y'],
    ['git lg'],
  ])('refuses %s', (command) => {
    const check = allowed(command, 'git log:*', 'git diff:*', 'git status:*', 'git:*');
    expect(check.ok).toBe(false);
  });

  it.each([
    ['git log --oneline -5'],
    ['git log -p -C --stat'],
    ['git diff --stat HEAD~1'],
    ['git diff --no-index a.txt b.txt'],
    ['git --no-pager log -1'],
    ['git status --short'],
    ['git log --output-indicator-new=+ -p'],
  ])('allows %s', (command) => {
    expect(
      allowed(command, 'git log:*', 'git diff:*', 'git status:*', 'git --no-pager log:*'),
    ).toEqual({ ok: true });
  });

  it('says why, naming the option', () => {
    expect(refuseGitOptions(['git', 'log', '--output=x'])).toBe('git log --output');
    expect(refuseGitOptions(['git', '-c', 'a=b', 'log'])).toBe('git -c before the subcommand');
    const check = allowed('git log --ext-diff', 'git log:*');
    expect(check.ok ? '' : check.reason).toMatch(/--ext-diff can write files, run programs/);
  });

  it('leaves a pattern that allows anything alone', () => {
    expect(allowed('git log --output=x', '*')).toEqual({ ok: true });
  });
});
