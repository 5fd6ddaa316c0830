import { describe, expect, it } from 'vitest';
import { approvalAsk, isApprovalAsk } from './approval-ask.js';

describe('approvalAsk', () => {
  it("keeps the model's own words apart from the calls it asks about", () => {
    const content =
      'I\'ll put that in your calendar.\n\nI need your approval to:\n- Create "Review"';
    expect(approvalAsk(content)).toEqual({
      said: "I'll put that in your calendar.",
      calls: ['Create "Review"'],
    });
  });

  it('reads a message without words of the model, and ignores any other message', () => {
    expect(approvalAsk('I need your approval to:\n- a\n- b')).toEqual({
      said: '',
      calls: ['a', 'b'],
    });
    expect(isApprovalAsk('Booked: I need your approval to: nothing')).toBe(false);
    expect(approvalAsk('Hello')).toBeUndefined();
  });
});
