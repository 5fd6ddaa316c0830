import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors/validation-error.js';
import type { Message } from '../../model/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { ModelStep, Trajectory } from '../../trajectory/types.js';
import { forkConversation } from './fork-conversation.js';
import { trajectoryView } from './trajectory-view.js';

const user = (text: string): Message => ({ role: 'user', parts: [{ kind: 'text', text }] });
const call = (id: string, name: string): Message => ({
  role: 'model',
  parts: [{ kind: 'function_call', id, name, args: { q: 1 } }],
});
const answer = (id: string, name: string, output: unknown): Message => ({
  role: 'user',
  parts: [{ kind: 'function_response', id, name, response: { output } }],
});

function step(
  index: number,
  system: string,
  messages: Message[],
  reply: ModelStep['chunks'],
): ModelStep {
  return {
    index,
    started_at: '2026-01-01T00:00:00.000Z',
    duration_ms: 5,
    request: { model: 'm', systemInstruction: system, messages, tools: [], config: {} },
    request_hash: `h${index}`,
    chunks: reply,
    retries: [],
  };
}

/** The boss delegates to a helper (a subagent with its own conversation), then answers. */
const opening = [user('Old question'), user('Plan the launch')];
const steps = [
  step(0, 'boss', opening, [
    { type: 'thought', text: 'Ask the helper.', offset_ms: 0 },
    {
      type: 'function_call',
      call: { kind: 'function_call', id: 'c1', name: 'task', args: { q: 1 } },
      offset_ms: 0,
    },
  ]),
  step(
    1,
    'helper',
    [user('Help with the launch')],
    [{ type: 'text', text: 'Helped.', offset_ms: 0 }],
  ),
  step(
    2,
    'boss',
    [...opening, call('c1', 'task'), answer('c1', 'task', { ok: true })],
    [{ type: 'text', text: 'Planned.', offset_ms: 0 }],
  ),
];
const trajectory = {
  run_id: 'r1',
  agent: { name: 'boss' },
  inputs: { prompt: 'Plan the launch' },
  model_steps: steps,
  tool_steps: [],
  events: [
    { type: 'turn_started', path: ['boss'] },
    { type: 'turn_started', path: ['boss', 'helper'] },
    { type: 'turn_started', path: ['boss'] },
  ],
  metadata: {
    model: 'm',
    started_at: '2026-01-01T00:00:00.000Z',
    duration_ms: 20,
    terminate_reason: 'GOAL',
    final_result: { final_message: 'Planned.' },
  },
} as unknown as Trajectory;

const boss: AgentDefinition = {
  name: 'boss',
  description: 'Plans.',
  promptConfig: { systemPrompt: 'boss' },
  toolConfig: { tools: ['task'] },
};

describe('a recorded run as the page steps through it', () => {
  it("tells the run's own steps from its subagent's, and each call's result", () => {
    const view = trajectoryView(trajectory);
    expect(view.prompt).toBe('Plan the launch');
    expect(view.steps.map((s) => [s.index, s.forkable, s.path.join('/')])).toEqual([
      [0, true, 'boss'],
      [1, false, 'boss/helper'],
      [2, true, 'boss'],
    ]);
    expect(view.steps[0]).toMatchObject({
      thought: 'Ask the helper.',
      calls: [{ id: 'c1', tool: 'task', result: { status: 'ok', output: '{\n  "ok": true\n}' } }],
    });
    expect(view.steps[2]?.text).toBe('Planned.');
  });

  it('forks the own agent from a step with the prompt edited, history and later turns kept', () => {
    const { inputs, conversation } = forkConversation(trajectory, boss, 2, 'Plan the party');
    expect(inputs).toEqual({ prompt: 'Plan the party' });
    expect(conversation).toEqual([
      user('Old question'),
      user('Plan the party'),
      call('c1', 'task'),
      answer('c1', 'task', { ok: true }),
    ]);
  });

  it("refuses a subagent's step, a step past the end, and a workflow agent", () => {
    expect(() => forkConversation(trajectory, boss, 1, 'x')).toThrow(ValidationError);
    expect(() => forkConversation(trajectory, boss, 1, 'x')).toThrow(/own agent: 0, 2/);
    expect(() => forkConversation(trajectory, boss, 3, 'x')).toThrow(ValidationError);
    const workflow = { ...boss, workflow: { kind: 'sequential' as const, agents: [] } };
    expect(() => forkConversation(trajectory, workflow, 0, 'x')).toThrow(/cannot be forked/);
  });
});
