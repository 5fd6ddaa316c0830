import { describe, expect, it } from 'vitest';
import type { RunState } from '../../contracts/run-state.js';
import { approvalMessage } from './approval-message.js';

const state = (parts: RunState['messages'][number]['parts']): RunState =>
  ({
    messages: [
      { role: 'user', parts: [{ kind: 'text', text: 'Mail Bob' }] },
      { role: 'model', parts },
    ],
  }) as RunState;

describe('approvalMessage', () => {
  it("keeps what the model said in the turn before the calls it waits on (scripted turn's text)", () => {
    const said = state([
      { kind: 'thought', text: 'Needs approval.' },
      { kind: 'text', text: "I'll put that in your calendar." },
      { kind: 'function_call', id: 'c1', name: 'calendar_event_create', args: {} },
    ] as RunState['messages'][number]['parts']);
    expect(approvalMessage(said, [{ preview: 'Create "Review"' }])).toBe(
      'I\'ll put that in your calendar.\n\nI need your approval to:\n- Create "Review"',
    );
  });

  it('is the ask alone when the model said nothing', () => {
    expect(approvalMessage(state([]), [{ preview: 'a' }, { preview: 'b' }])).toBe(
      'I need your approval to:\n- a\n- b',
    );
  });
});
