import { describe, expect, it } from 'vitest';
import { approvalElicitation } from './approval-question.js';

describe('approvalElicitation', () => {
  it('escapes a raw preview, agent path and reason in the message an MCP client shows', () => {
    const { message } = approvalElicitation({
      tool: 'write_file',
      preview: 'Write 2 bytes to notes\u202etxt.sh\r\x1b[2K',
      reason: 'no grant\u2028covers it',
      agent: 'desk › wri\u2066ter',
    });
    expect(message).toBe(
      'The agent desk › wri\\u2066ter wants to run write_file: Write 2 bytes to notes\\u202etxt.sh\\r\\x1b[2K\nno grant\\u2028covers it\nAllow it?',
    );
  });
});
