import { describe, expect, it } from 'vitest';
import { buildShellEnvironment, parsePassEnv } from './shell-environment.js';

const source = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/ada',
  LANG: 'en_GB.UTF-8',
  TERM: 'xterm-256color',
  USER: 'ada',
  GEMINI_API_KEY: 'gemini-secret',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  GITHUB_TOKEN: 'gh-secret',
  NODE_ENV: 'production',
  UNSET: undefined,
};

describe('buildShellEnvironment', () => {
  it('keeps the allow-listed variables and forces TERM=dumb', () => {
    expect(buildShellEnvironment(source)).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/ada',
      LANG: 'en_GB.UTF-8',
      TERM: 'dumb',
      USER: 'ada',
    });
  });

  it('leaves secrets out unless they are listed', () => {
    const env = buildShellEnvironment(source);
    expect(env).not.toHaveProperty('GEMINI_API_KEY');
    expect(env).not.toHaveProperty('AWS_SECRET_ACCESS_KEY');
    expect(env).not.toHaveProperty('GITHUB_TOKEN');
    expect(buildShellEnvironment(source, ['AWS_SECRET_ACCESS_KEY', 'NODE_ENV'])).toMatchObject({
      AWS_SECRET_ACCESS_KEY: 'aws-secret',
      NODE_ENV: 'production',
    });
  });

  it('skips listed names that are unset or invalid', () => {
    const env = buildShellEnvironment({ ...source, 'A=B': 'x' }, ['UNSET', 'MISSING', 'A=B']);
    expect(Object.keys(env).sort()).toEqual(['HOME', 'LANG', 'PATH', 'TERM', 'USER']);
  });

  it('sets TERM even when the source has none', () => {
    expect(buildShellEnvironment({})).toEqual({ TERM: 'dumb' });
  });
});

describe('parsePassEnv', () => {
  it('reads a comma-separated list, dropping blanks and invalid names', () => {
    expect(parsePassEnv(' GOPATH, NODE_ENV ,,bad-name, _X1')).toEqual([
      'GOPATH',
      'NODE_ENV',
      '_X1',
    ]);
    expect(parsePassEnv(undefined)).toEqual([]);
    expect(parsePassEnv('')).toEqual([]);
  });
});
