import { describe, expect, it } from 'vitest';
import {
  checkCommand,
  parseCommandPattern,
  toCadrePattern,
  type CommandPattern,
  type PatternDialect,
} from './command-patterns.js';

function patterns(texts: readonly string[], dialect: PatternDialect = 'cadre'): CommandPattern[] {
  return texts.map((text) => parseCommandPattern(text, dialect));
}

function allowed(command: string, texts: readonly string[], dialect?: PatternDialect): boolean {
  return checkCommand(command, patterns(texts, dialect)).ok;
}

function reason(command: string, texts: readonly string[]): string | undefined {
  const check = checkCommand(command, patterns(texts));
  return check.ok ? undefined : check.reason;
}

describe('parseCommandPattern', () => {
  it('reads the claude / cadre forms', () => {
    expect(parseCommandPattern('git status:*', 'claude')).toEqual({
      kind: 'prefix',
      source: 'git status:*',
      words: ['git', 'status'],
    });
    expect(parseCommandPattern('  npm   test ', 'cadre')).toEqual({
      kind: 'exact',
      source: 'npm test',
      words: ['npm', 'test'],
    });
    expect(parseCommandPattern('npm run test *', 'claude').kind).toBe('glob');
    expect(parseCommandPattern('git * --help', 'claude').kind).toBe('glob');
  });

  it('treats "*", ":*" and the empty pattern as any command', () => {
    for (const text of ['*', '', '  ', ':*']) {
      expect(parseCommandPattern(text, 'claude').kind).toBe('any');
    }
    expect(parseCommandPattern('*', 'gemini').kind).toBe('any');
  });

  it('reads a gemini pattern as a word prefix', () => {
    expect(parseCommandPattern('git', 'gemini')).toEqual({
      kind: 'prefix',
      source: 'git',
      words: ['git'],
    });
    expect(toCadrePattern('git  status', 'gemini')).toBe('git status:*');
    expect(toCadrePattern('git status', 'claude')).toBe('git status');
    expect(toCadrePattern('', 'gemini')).toBe('');
  });

  it('keeps an escaped star literal', () => {
    const pattern = parseCommandPattern('echo \\*', 'cadre');
    expect(pattern.kind).toBe('exact');
    expect(checkCommand('echo "*"', [pattern]).ok).toBe(true);
    const glob = parseCommandPattern('echo \\* *', 'cadre');
    expect(checkCommand("echo '*' x", [glob]).ok).toBe(true);
    expect(checkCommand('echo a x', [glob]).ok).toBe(false);
  });
});

describe('checkCommand: prefix patterns (git status:*)', () => {
  const git = ['git status:*'];

  it('allows the words followed by anything or nothing', () => {
    expect(allowed('git status', git)).toBe(true);
    expect(allowed('git status --short', git)).toBe(true);
    expect(allowed('  git \t status\t-s  ', git)).toBe(true);
    expect(allowed('"git" \'status\'', git)).toBe(true);
  });

  it('needs whole words', () => {
    expect(allowed('git statusx', git)).toBe(false);
    expect(allowed('git stat', git)).toBe(false);
    expect(allowed('git', git)).toBe(false);
    expect(allowed('gitk status', git)).toBe(false);
    expect(allowed('git "status --short"', git)).toBe(false);
  });
});

describe('checkCommand: exact patterns (npm test)', () => {
  it('allows that command only, whatever the spacing', () => {
    expect(allowed('npm test', ['npm test'])).toBe(true);
    expect(allowed('  npm\t  test ', ['npm test'])).toBe(true);
    expect(allowed('npm test --watch', ['npm test'])).toBe(false);
    expect(allowed('npm', ['npm test'])).toBe(false);
  });
});

describe('checkCommand: glob patterns', () => {
  it('lets * match any run of characters', () => {
    const help = ['git * --help'];
    expect(allowed('git commit --help', help)).toBe(true);
    expect(allowed('git remote add --help', help)).toBe(true);
    expect(allowed('git commit', help)).toBe(false);
  });

  it('lets a trailing " *" match nothing, but keeps the word boundary', () => {
    const test = ['npm run test *'];
    expect(allowed('npm run test', test)).toBe(true);
    expect(allowed('npm run test -- --grep x', test)).toBe(true);
    expect(allowed('npm run testx', test)).toBe(false);
    expect(allowed('ls', ['ls *'])).toBe(true);
    expect(allowed('lsof', ['ls *'])).toBe(false);
    expect(allowed('lsof', ['ls*'])).toBe(true);
  });

  it('does not let a quoted word pass for several words', () => {
    expect(allowed("'git status' x", ['git status *'])).toBe(false);
  });
});

describe('checkCommand: gemini prefixes', () => {
  it('matches on word boundaries', () => {
    expect(allowed('git', ['git'], 'gemini')).toBe(true);
    expect(allowed('git log -1', ['git'], 'gemini')).toBe(true);
    expect(allowed('gitk', ['git'], 'gemini')).toBe(false);
    expect(allowed('git log', ['git status'], 'gemini')).toBe(false);
  });
});

describe('checkCommand: compound commands', () => {
  const set = ['git status:*', 'git diff:*', 'wc:*'];

  it('allows a compound command when every part matches', () => {
    expect(allowed('git status && git diff', set)).toBe(true);
    expect(allowed('git diff | wc -l', set)).toBe(true);
    expect(allowed('git status; git diff\ngit status', set)).toBe(true);
    expect(allowed('git status || git diff &', set)).toBe(true);
  });

  it.each([
    'git status; rm x',
    'git status;rm x',
    'git status && rm -rf /',
    'git status || rm x',
    'git status\nrm x',
    'git status \\\n; rm x',
    'git status|sh',
    'git status | sh',
    'git status & rm x',
    'git status |& rm x',
    'rm x; git status',
  ])('refuses a part outside the patterns: %j', (command) => {
    expect(allowed(command, set)).toBe(false);
  });

  it('names the part and the pattern set in the reason', () => {
    expect(reason('git status && rm -rf /', ['git status:*'])).toBe(
      'the command "rm -rf /" is outside the allowed commands (git status:*)',
    );
  });

  it('reads quoted operators as part of one word', () => {
    expect(allowed('git commit -m "a && b"', ['git commit:*'])).toBe(true);
    expect(allowed("git commit -m 'x; rm -rf / | sh'", ['git commit:*'])).toBe(true);
    expect(allowed('git commit -m a\\;b', ['git commit:*'])).toBe(true);
    expect(allowed('git commit -m "line one\nline two"', ['git commit:*'])).toBe(true);
  });

  it('refuses line continuations: the shell joins them before reading quotes, `$` and comments', () => {
    expect(allowed('git status \\\n  --short', ['git status:*'])).toBe(false);
    // Inside double quotes the continuation hides a substitution from a scan that reads `$\`.
    expect(allowed('git log "$\\\n(touch x)"', ['git:*'])).toBe(false);
    // A comment ends at the newline the continuation would hide.
    expect(allowed('echo hi # \\\nrm -rf x', ['echo:*'])).toBe(false);
  });
});

describe('checkCommand: constructs the patterns cannot vet', () => {
  const git = ['git status:*', 'git commit:*', 'echo:*'];

  it.each([
    ['git status $(rm x)', 'command substitution $(…)'],
    ['git status "$(rm x)"', 'command substitution $(…)'],
    ['git status `rm x`', 'command substitution `…`'],
    ['git commit -m "`rm x`"', 'command substitution `…`'],
    ['echo $((1+2))', 'arithmetic expansion $((…))'],
    ['echo ${X:-$(rm x)}', 'parameter expansion ${…}'],
    ['echo ${#X}', 'parameter expansion ${…}'],
    ['echo $[x]', 'arithmetic expansion $[…]'],
    ['git status <(rm x)', 'process substitution <(…)'],
    ['git status >(rm x)', 'process substitution >(…)'],
    ['(rm x)', 'a subshell or parentheses'],
    ['git status && (rm x)', 'a subshell or parentheses'],
    ['git status > /etc/passwd', 'a redirection (>)'],
    ['git status >/etc/passwd', 'a redirection (>)'],
    ['git status >> log', 'a redirection (>>)'],
    ['git status 2> err', 'a redirection (>)'],
    ['git status &> out', 'a redirection (>)'],
    ['git status < input', 'a redirection (<)'],
    ['git status >&file', 'a redirection (>)'],
    ['git status 2>&1x', 'a redirection (>)'],
    ['cat <<EOF\nx\nEOF', 'a heredoc (<<)'],
    ['cat <<< x', 'a here-string (<<<)'],
    ['FOO=1 git status', 'a variable assignment before the command (FOO=…)'],
    ['GIT_PAGER=sh git status', 'a variable assignment before the command (GIT_PAGER=…)'],
    ['$CMD status', 'a variable in the command name'],
    ['${CMD} status', 'a variable in the command name'],
    ['g$X status', 'a variable in the command name'],
    ['if git status; then rm x; fi', 'the shell keyword "if"'],
    ['! git status', 'the shell keyword "!"'],
    ['{ git status; }', 'the shell keyword "{"'],
    ['for f in a; do rm $f; done', 'the shell keyword "for"'],
    ['/bin/r? x', 'a wildcard or brace in the command name'],
    ['{rm,-rf,x}', 'a wildcard or brace in the command name'],
    ["git status $'\\x3b'", "$'…' quoting"],
    ['git status "unterminated', 'an unterminated quote'],
    ["git status 'unterminated", 'an unterminated quote'],
    ['git status\r\nrm x', 'a control or unusual whitespace character (U+000D)'],
    ['git\u00a0status', 'a control or unusual whitespace character (U+00A0)'],
  ])('refuses %j naming %s', (command, construct) => {
    expect(reason(command, git)).toBe(
      `the command uses ${construct}, which the allowed commands (git status:*, git commit:*, echo:*) cannot vet`,
    );
  });

  it('keeps quoted look-alikes literal', () => {
    expect(allowed("git commit -m '$(rm x) `rm x` > /etc/passwd'", git)).toBe(true);
    expect(allowed('git commit -m "a > b; (c)"', git)).toBe(true);
    expect(allowed('git commit -m \\$\\(rm\\ x\\)', git)).toBe(true);
  });

  it('allows plain variables in arguments, which only add words', () => {
    expect(allowed('echo $HOME ${USER} "$?" $1', git)).toBe(true);
    expect(allowed('echo cost: 5$', git)).toBe(true);
  });

  it('allows redirections that touch no file', () => {
    expect(allowed('git status 2>&1', git)).toBe(true);
    expect(allowed('git status >&2', git)).toBe(true);
    expect(allowed('git status 2>/dev/null', git)).toBe(true);
    expect(allowed('git status > /dev/null 2>&1 && echo ok', git)).toBe(true);
    expect(allowed('npm test 2>&1', ['npm test'])).toBe(true);
    expect(allowed('git status >/dev/nullx', git)).toBe(false);
  });

  it('ignores comments the way the shell does, and reads a mid-word # literally', () => {
    expect(allowed('git status # ; rm x', git)).toBe(true);
    expect(allowed('git status # note\nrm x', git)).toBe(false);
    expect(allowed('git status a#b; rm x', git)).toBe(false);
    expect(allowed('echo a#b', ['echo a#b'])).toBe(true);
  });

  it('refuses nothing when a pattern allows any command', () => {
    expect(allowed('git status $(rm x) > /etc/passwd', ['git status:*', '*'])).toBe(true);
  });

  it('refuses everything under an empty pattern set', () => {
    expect(reason('ls', [])).toBe('the command "ls" is outside the allowed commands (none)');
  });

  it('accepts a blank command, which runs nothing', () => {
    expect(allowed('  \n ', git)).toBe(true);
  });
});
