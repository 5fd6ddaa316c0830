import { describe, expect, it } from 'vitest';
import { createStyle } from '../../cli/style.js';
import { formatLogRecord, prettyDestination } from './pretty-log.js';

const plain = createStyle(false);
// Local time, so the expected clock does not depend on the machine's zone.
const time = new Date(2026, 0, 2, 12, 1, 2).getTime();
const request = (statusCode: number) => ({
  level: statusCode >= 500 ? 40 : 30,
  time,
  reqId: 'req-1',
  req: { method: 'POST', url: '/api/runs', remoteAddress: '127.0.0.1' },
  res: { statusCode },
  responseTime: 45.4,
  msg: 'request completed',
});

describe('pretty log lines', () => {
  it('shows a finished request on one line', () => {
    expect(formatLogRecord(request(200), plain)).toBe('12:01:02 POST /api/runs 200 45 ms');
  });

  it('colours the status by class', () => {
    const colour = createStyle(true);
    expect(formatLogRecord(request(200), colour)).toContain('\u001b[32m200\u001b[39m');
    expect(formatLogRecord(request(404), colour)).toContain('\u001b[33m404\u001b[39m');
    expect(formatLogRecord(request(500), colour)).toContain('\u001b[31m500\u001b[39m');
  });

  it('drops the incoming half of a request', () => {
    expect(formatLogRecord({ level: 30, time, msg: 'incoming request' }, plain)).toBeUndefined();
  });

  it('labels problems, with the error, its stack and simple fields', () => {
    const err = { type: 'Error', message: 'boom', stack: 'Error: boom\n    at run (x.ts:1:1)' };
    expect(
      formatLogRecord({ level: 50, time, msg: 'worker: run failed', runId: 'r1', err }, plain),
    ).toBe('12:01:02 ERROR worker: run failed: boom runId=r1\n    at run (x.ts:1:1)');
    expect(
      formatLogRecord({ level: 30, time, pid: 1, hostname: 'h', msg: 'Stopping' }, plain),
    ).toBe('12:01:02 Stopping');
  });

  it('writes one readable line per JSON record and passes other text through', () => {
    const out: string[] = [];
    const stream = prettyDestination((t) => out.push(t), plain);
    stream.write(`${JSON.stringify(request(201))}\n`);
    stream.write('not json\n');
    expect(out).toEqual(['12:01:02 POST /api/runs 201 45 ms\n', 'not json\n']);
  });
});
