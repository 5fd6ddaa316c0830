import { describe, expect, it } from 'vitest';
import type { Agent } from '../contracts/agent.js';
import type { AgentDefinition } from '../definition/types.js';
import type { CadreEvent } from '../events/types.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { sendTool } from '../testing/test-tools.js';
import { resume, run, start, stream } from './run-verbs.js';

const mailer: AgentDefinition = {
  name: 'mailer',
  description: 'Sends one message.',
  promptConfig: { systemPrompt: 'Send what you are asked to.' },
  toolConfig: { tools: ['send'] },
};

const sendThenConfirm = (): ScriptedModel =>
  new ScriptedModel([
    { parts: [{ functionCall: { name: 'send', args: { to: 'ana@example.com' } } }] },
    { parts: [{ text: 'Sent.' }] },
  ]);

/** A code agent that answers with its prompt, upper-cased. */
const shouter: Agent = {
  name: 'shouter',
  description: 'Shouts the prompt back.',
  async *execute(input) {
    yield { type: 'final_result', message: 'done', data: { content: input.prompt.toUpperCase() } };
  },
};

describe('the run verbs (scripted model)', () => {
  it('run takes a definition or a code agent and returns the same RunResult shape', async () => {
    const fromDefinition = await run(
      { ...mailer, toolConfig: { tools: [] } },
      { model: new ScriptedModel([{ parts: [{ text: 'Hello.' }] }]), inputs: { prompt: 'hi' } },
    );
    const fromCode = await run(shouter, { model: new ScriptedModel([]), inputs: { prompt: 'hi' } });
    expect(fromDefinition).toMatchObject({ terminate_reason: 'GOAL', content: 'Hello.' });
    expect(fromCode).toMatchObject({ terminate_reason: 'GOAL', content: 'HI', agent: 'shouter' });
  });

  it('start pauses on a side effect that waits for a person, and resume runs it once approved', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const model = sendThenConfirm();
    const options = { model, tools: [sendTool(sent)], inputs: { prompt: 'mail ana' } };
    const first = await start(mailer, { ...options, confirm: async () => ({ kind: 'pause' }) });
    if (first.status !== 'paused') throw new Error('expected a pause');
    expect(sent).toEqual([]);
    const callId = first.pending[0]?.callId ?? '';
    const second = await resume(mailer, first.state, { [callId]: { kind: 'approve' } }, options);
    expect(second).toMatchObject({ status: 'finished', result: { content: 'Sent.' } });
    expect(sent).toEqual([{ to: 'ana@example.com' }]);
  });

  it('stream yields the events as they happen, ending with final_result', async () => {
    const events: CadreEvent[] = [];
    for await (const event of stream(shouter, {
      model: new ScriptedModel([]),
      inputs: { prompt: 'x' },
    }))
      events.push(event);
    expect(events[0]?.type).toBe('run_started');
    expect(events.at(-1)).toMatchObject({
      type: 'final_result',
      data: { result: { content: 'X' } },
    });
  });
});
