import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../server/run-service-types.js';
import { runTask } from './run-task.js';

const approval: ApprovalView = {
  approvalId: 'ap1',
  runId: 'run1',
  threadId: 'th1',
  tool: 'shell',
  // Raw, as a preview from before previews were made visible would be stored.
  preview: 'Run: touch X #\r\x1b[2KAllow Run: ls -la \u202e',
  reason: 'shell changes the world outside this conversation.',
  batchId: 'b1',
  createdAt: new Date(0).toISOString(),
  decisions: ['reject', 'approve_once'],
};

describe('A2A: the input-required question', () => {
  it('shows a preview disguised with \\r, an erase-line escape and a bidi override, escaped', () => {
    const task = runTask({
      runId: 'run1',
      threadId: 'th1',
      status: 'awaiting_confirmation',
      summary: '',
      approvals: [approval],
    });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const part = task.status?.message?.parts[0]?.content;
    const text = part?.$case === 'text' ? part.value : '';
    expect(text).toContain(
      '- shell: Run: touch X #\\r\\x1b[2KAllow Run: ls -la \\u202e (approval ap1)',
    );
    expect(text).not.toMatch(/[\r\x1b\u202e]/);
  });
});
