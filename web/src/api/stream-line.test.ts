import { describe, expect, it } from 'vitest';
import { describeCall, toStreamLine } from './stream-line.js';

describe('toStreamLine: the server NDJSON lines', () => {
  it('reads the wire lines of src/server/http/stream-lines.ts', () => {
    expect(toStreamLine({ type: 'status', status: 'planning', threadId: 't', runId: 'r' })).toEqual(
      {
        type: 'status',
        status: 'planning',
        threadId: 't',
        runId: 'r',
      },
    );
    expect(toStreamLine({ type: 'delta', delta: 'Hi', seq: 3 })).toEqual({
      type: 'delta',
      delta: 'Hi',
    });
    expect(
      toStreamLine({
        type: 'tool_call',
        tool: 'gmail_send',
        callId: 'c1',
        args: { to: 'a@b.c' },
        depth: 1,
        seq: 4,
      }),
    ).toEqual({
      type: 'tool_call',
      tool: 'gmail_send',
      callId: 'c1',
      args: { to: 'a@b.c' },
      summary: 'gmail_send(to: "a@b.c")',
      depth: 1,
    });
    expect(toStreamLine({ type: 'error', error: 'Already decided.', code: 'conflict' })).toEqual({
      type: 'error',
      error: { code: 'conflict', message: 'Already decided.' },
    });
  });

  it('skips lines it does not know instead of failing', () => {
    expect(toStreamLine({ type: 'heartbeat' })).toBeUndefined();
    expect(toStreamLine('text')).toBeUndefined();
    expect(toStreamLine({ type: 'event', event: 'nope' })).toBeUndefined();
  });

  it('shows a call summary’s control characters and bidi overrides escaped', () => {
    expect(describeCall('shell', { command: 'touch X #\r\x1b[2Kok', path: 'a\u202eb' })).toBe(
      'shell(command: "touch X #\\r\\x1b[2Kok", path: "a\\u202eb")',
    );
  });

  it('clips long argument values in a call summary', () => {
    expect(describeCall('write', { text: 'x'.repeat(100) })).toBe(
      `write(text: "${'x'.repeat(59)}…)`,
    );
  });
});
