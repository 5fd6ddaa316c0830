import { describe, expect, it } from 'vitest';
import type { Agent } from '../../contracts/agent.js';
import type { RunState } from '../../contracts/run-state.js';
import type { AgentDefinition } from '../../definition/types.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import { sendTool } from '../../testing/test-tools.js';
import { resume, start } from '../run-verbs.js';

// A code agent written with the library, run as the root: its child waits for a person, the
// run pauses as a whole, and resuming (from stored JSON) sends exactly once. Scripted model.
const mailer: AgentDefinition = {
  name: 'mailer',
  description: 'Sends one message.',
  promptConfig: { systemPrompt: 'Send what you are asked to.' },
  toolConfig: { tools: ['send'] },
};

/** Delegates to the mailer, then reports what it answered. */
const desk: Agent = {
  name: 'desk',
  description: 'Hands mail to the mailer.',
  async *execute(input, ctx) {
    const done = await ctx.spawn({
      target: { kind: 'definition', definition: mailer },
      ephemeral: false,
      inputs: { prompt: input.prompt },
    });
    yield { type: 'final_result', message: 'done', data: { content: `mailer: ${done.content}` } };
  },
};

describe('a library code agent as the root (scripted model)', () => {
  it('pauses when its child waits for approval, and resumes to send once', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const model = new ScriptedModel([
      { parts: [{ functionCall: { name: 'send', args: { to: 'ana@example.com' } } }] },
      { parts: [{ text: 'Sent.' }] },
    ]);
    const options = {
      model,
      tools: [sendTool(sent)],
      inputs: { prompt: 'mail ana' },
      confirm: async () => ({ kind: 'pause' as const }),
    };
    const paused = await start(desk, options);
    if (paused.status !== 'paused') throw new Error(`expected a pause: ${JSON.stringify(paused)}`);
    expect(paused.pending.map((p) => p.path)).toEqual([['desk', 'mailer', 'send']]);
    expect(sent).toEqual([]);
    const stored = JSON.parse(JSON.stringify(paused.state)) as RunState;
    const callId = paused.pending[0]?.callId ?? '';
    const done = await resume(desk, stored, { [callId]: { kind: 'approve' } }, options);
    if (done.status !== 'finished') throw new Error('expected the end');
    expect(done.result).toMatchObject({ terminate_reason: 'GOAL', content: 'mailer: Sent.' });
    expect(sent).toEqual([{ to: 'ana@example.com' }]);
    expect(model.requests).toHaveLength(2);
  });

  it('a rejected call reaches the child as a refusal, and nothing is sent', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const model = new ScriptedModel([
      { parts: [{ functionCall: { name: 'send', args: { to: 'ana@example.com' } } }] },
      { parts: [{ text: 'Not sent: refused.' }] },
    ]);
    const options = {
      model,
      tools: [sendTool(sent)],
      inputs: { prompt: 'mail ana' },
      confirm: async () => ({ kind: 'pause' as const }),
    };
    const paused = await start(desk, options);
    if (paused.status !== 'paused') throw new Error('expected a pause');
    const callId = paused.pending[0]?.callId ?? '';
    const done = await resume(desk, paused.state, { [callId]: { kind: 'reject' } }, options);
    expect(done).toMatchObject({
      status: 'finished',
      result: { content: 'mailer: Not sent: refused.' },
    });
    expect(sent).toEqual([]);
  });
});
