import { describe, expect, it } from 'vitest';
import type { ThreadMessage } from '../api/wire-types.js';
import type { RunSummary } from './run-outcome.js';
import { withUnansweredRuns } from './unanswered-runs.js';

const message = (id: string, role: ThreadMessage['role'], runId: string): ThreadMessage => ({
  id,
  threadId: 't',
  seq: 1,
  role,
  content: `${role} ${id}`,
  runId,
  createdAt: '2026-01-01T00:00:00.000Z',
});
const run = (status: string, summary = ''): RunSummary => ({
  agent: 'assistant',
  model: '',
  status,
  summary,
});

describe('withUnansweredRuns', () => {
  it('gives a run that failed before any reply its reason as the reply, after its prompt', () => {
    const messages = [message('u1', 'user', 'r1'), message('u2', 'user', 'r2')];
    const out = withUnansweredRuns(messages, {
      r1: run('failed', 'The run could not go on: … GEMINI_API_KEY'),
      r2: run('running'),
    });
    expect(out.map((m) => [m.role, m.runId])).toEqual([
      ['user', 'r1'],
      ['assistant', 'r1'],
      ['user', 'r2'],
    ]);
    expect(out[1]?.content).toMatch(/GEMINI_API_KEY/);
  });

  it('leaves runs with a reply, and runs not read yet, as they are', () => {
    const messages = [message('u1', 'user', 'r1'), message('a1', 'assistant', 'r1')];
    expect(withUnansweredRuns(messages, { r1: run('failed', 'boom') })).toEqual(messages);
    const prompt = [message('u2', 'user', 'r2')];
    expect(withUnansweredRuns(prompt, {})).toEqual(prompt);
  });

  it('says a cancelled run was cancelled even without a summary', () => {
    const out = withUnansweredRuns([message('u1', 'user', 'r1')], { r1: run('cancelled') });
    expect(out[1]).toMatchObject({ role: 'assistant', content: 'Cancelled.' });
  });
});
