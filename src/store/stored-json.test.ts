import { describe, expect, it } from 'vitest';
import { StoredDataError } from '../errors/stored-data-error.js';
import { parseStoredEvent } from './stored-event.js';
import { parseStoredArgs, parseStoredUsage } from './stored-json.js';

const row = {
  type: 'tool_call',
  message: 'send',
  timestamp: '2026-01-01T00:00:00.000Z',
  runId: 'r1',
  executionId: 'r1',
  depth: 0,
  path: ['a'],
  seq: 3,
  data: { callId: 'c1', tool: 'send', args: {} },
};
const json = (fields: Record<string, unknown>) => JSON.stringify({ ...row, ...fields });
const refusal = (read: () => unknown): StoredDataError => {
  try {
    read();
  } catch (error) {
    if (error instanceof StoredDataError) return error;
    throw error;
  }
  throw new Error('a damaged row was read as if whole');
};

describe('JSON the store reads back is parsed by a schema', () => {
  it('reads a whole event row, keeping fields a newer writer added', () => {
    expect(parseStoredEvent(json({ threadId: 4 }))).toMatchObject({ ...row, threadId: 4 });
  });

  it('refuses a damaged event row naming the field', () => {
    expect(refusal(() => parseStoredEvent(json({ seq: 'three' }))).message).toMatch(
      /^The stored event is not valid: seq: /,
    );
    expect(refusal(() => parseStoredEvent(json({ data: 'text' }))).message).toMatch(/: data: /);
    expect(refusal(() => parseStoredEvent(json({ path: [1] }))).message).toMatch(/: path\.0: /);
    expect(refusal(() => parseStoredEvent('{"type":')).message).toMatch(/: \(top\): not JSON/);
  });

  it('refuses call arguments that are not an object, and usage with a token count as text', () => {
    expect(parseStoredArgs('{"to":"ann"}')).toEqual({ to: 'ann' });
    expect(refusal(() => parseStoredArgs('["ann"]')).message).toMatch(/stored call arguments/);
    const usage = { inputTokens: 1, outputTokens: 2, thoughtTokens: 0, totalTokens: 3 };
    expect(parseStoredUsage(JSON.stringify(usage))).toEqual(usage);
    expect(parseStoredUsage('{}')).toEqual({
      ...usage,
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
    });
    expect(
      refusal(() => parseStoredUsage(JSON.stringify({ ...usage, outputTokens: '2' }))).message,
    ).toMatch(/stored run usage is not valid: outputTokens: /);
  });
});
