import { Ajv } from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError } from '../../errors/index.js';
import { contextFor, makeWorkspace, type TestWorkspace } from '../builtin/testing/test-support.js';
import { createShellTool, shellTool } from './shell-tool.js';

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: '/home/ada',
  GEMINI_API_KEY: 'gemini-secret',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  NODE_ENV: 'test',
};

describe('shell tool', () => {
  it('runs a command in the workspace and reports its output', async () => {
    await ws.write({ 'a.txt': 'hello\n' });
    const tool = createShellTool({ env });
    const result = await tool.execute({ command: 'pwd; cat a.txt; echo oops >&2' }, ws.ctx);
    expect(result).toEqual({
      exit_code: 0,
      stdout: `${ws.root}\nhello\n`,
      stderr: 'oops\n',
      timed_out: false,
      duration_ms: expect.any(Number),
    });
  });

  it('returns a non-zero exit as a result, not an error', async () => {
    const tool = createShellTool({ env });
    const result = await tool.execute({ command: 'echo nope >&2; exit 7' }, ws.ctx);
    expect(result).toMatchObject({ exit_code: 7, stdout: '', stderr: 'nope\n', timed_out: false });
  });

  it('gives the command a clean environment, plus what CADRE_SHELL_ENV names', async () => {
    const show = { command: 'echo "[$GEMINI_API_KEY][$AWS_SECRET_ACCESS_KEY][$NODE_ENV][$TERM]"' };
    const clean = await createShellTool({ env }).execute(show, ws.ctx);
    expect(clean).toMatchObject({ stdout: '[][][][dumb]\n' });
    const passing = createShellTool({ env: { ...env, CADRE_SHELL_ENV: 'NODE_ENV' } });
    expect(await passing.execute(show, ws.ctx)).toMatchObject({ stdout: '[][][test][dumb]\n' });
  });

  it('stops a command at timeout_seconds and says so', async () => {
    const tool = createShellTool({ env, killGraceMs: 100 });
    const result = await tool.execute(
      { command: 'echo begun; sleep 100', timeout_seconds: 0.2 },
      ws.ctx,
    );
    expect(result).toMatchObject({
      exit_code: null,
      stdout: 'begun\n',
      timed_out: true,
      signal: 'SIGTERM',
      note: 'The command was stopped after 0.2 s (timeout); the output is what it printed until then.',
    });
  });

  it('caps timeout_seconds at the maximum', async () => {
    const tool = createShellTool({ env, maxTimeoutMs: 200, killGraceMs: 100 });
    const result = await tool.execute({ command: 'sleep 100', timeout_seconds: 3_600 }, ws.ctx);
    expect(result).toMatchObject({ timed_out: true, note: expect.stringContaining('0.2 s') });
  });

  it('marks output that was cut', async () => {
    const tool = createShellTool({ env, maxOutputChars: 100 });
    const result = await tool.execute({ command: 'yes | head -c 10000' }, ws.ctx);
    expect(result).toMatchObject({ exit_code: 0, truncated: true });
  });

  it('throws CancelledError when the run is cancelled', async () => {
    const controller = new AbortController();
    const tool = createShellTool({ env });
    const running = tool.execute({ command: 'sleep 100' }, contextFor(ws.root, controller.signal));
    controller.abort();
    await expect(running).rejects.toThrow(CancelledError);
  });

  it('is a side effect needing approval, previewed in one line', () => {
    expect(shellTool.name).toBe('shell');
    expect(shellTool.sideEffect).toBe(true);
    expect(shellTool.defaultApproval).toBe('require');
    expect(shellTool.preview?.({ command: 'git status --short' })).toBe('Run: git status --short');
    // Raw here; the display escapes it (`previewOf` shows `Run: git status\nrm -rf /`).
    expect(shellTool.preview?.({ command: 'git status\nrm -rf /' })).toBe(
      'Run: git status\nrm -rf /',
    );
    const long = shellTool.preview?.({ command: `echo ${'x'.repeat(500)}` }) ?? '';
    expect(long.startsWith(`Run: echo ${'x'.repeat(190)}`)).toBe(true);
    expect(long).toContain('more characters]');
  });

  it('validates its arguments with the schema', () => {
    const validate = new Ajv().compile(shellTool.inputSchema);
    expect(validate({ command: 'ls' })).toBe(true);
    expect(validate({ command: 'ls', timeout_seconds: 5, description: 'list files' })).toBe(true);
    expect(validate({ command: '' })).toBe(false);
    expect(validate({ command: 'ls', timeout_seconds: 0 })).toBe(false);
    expect(validate({ command: 'ls', cwd: '/' })).toBe(false);
    expect(validate({})).toBe(false);
  });

  it('checks a call against the definition patterns', () => {
    const outside = (command: string, patterns: string[]): string | undefined =>
      shellTool.outsidePatterns?.({ command }, patterns);
    expect(outside('git status --short', ['git status:*', 'npm test'])).toBeUndefined();
    expect(outside('npm test', ['git status:*', 'npm test'])).toBeUndefined();
    expect(outside('git status && rm -rf /', ['git status:*'])).toBe(
      'the command "rm -rf /" is outside the allowed commands (git status:*)',
    );
    expect(outside('git status $(rm x)', ['git status:*'])).toBe(
      'the command uses command substitution $(…), which the allowed commands (git status:*) cannot vet',
    );
    expect(outside('rm -rf /', ['*'])).toBeUndefined();
  });
});
