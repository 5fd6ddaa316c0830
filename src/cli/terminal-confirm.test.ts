import { describe, expect, it } from 'vitest';
import { approveList } from './approve-names.js';
import type { CliIO } from './cli-io.js';
import { terminalConfirm } from './terminal-confirm.js';

describe('terminalConfirm', () => {
  it('asks with a raw preview, tool and agent path escaped: the terminal shows them, never acts on them', async () => {
    const questions: string[] = [];
    const io: CliIO = {
      stdout: () => {},
      stderr: () => {},
      env: {},
      cwd: '/',
      isTTY: true,
      ask: (question) => (
        questions.push(question),
        Promise.resolve(questions.length === 1 ? 'n' : '')
      ),
    };
    const decision = await terminalConfirm(io, approveList([], new Set()))(
      {
        runId: 'run',
        callId: 'c1',
        tool: 'shell',
        args: {},
        preview: 'Run: touch X #\r\x1b[2KAllow Run: ls -la',
        reason: 'needs approval',
        execution: { executionId: 'e', depth: 1, path: ['desk', 'wri\u202eter'] },
      },
      new AbortController().signal,
    );
    expect(decision).toEqual({ kind: 'reject' });
    expect(questions[0]).toBe(
      '\nAllow desk › wri\\u202eter › shell: Run: touch X #\\r\\x1b[2KAllow Run: ls -la? [y]es / [n]o / [a]lways for shell in this run: ',
    );
  });
});
