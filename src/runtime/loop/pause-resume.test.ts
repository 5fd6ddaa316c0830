import { describe, expect, it } from 'vitest';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { FunctionCallPart, ModelRequest } from '../../model/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import { echoTool, sendTool } from '../../testing/test-tools.js';
import type { ConfirmationHandler } from '../../contracts/confirmation.js';
import { drive, type RunOutcome } from './executor.js';
import {
  resume as resumeDefinition,
  run as runDefinition,
  start as startDefinition,
} from '../run-verbs.js';
import type { RunState } from '../../contracts/run-state.js';
import { memoryJournal } from './memory-journal.js';

const mailer: AgentDefinition = {
  name: 'mailer',
  description: 'Sends messages',
  promptConfig: { systemPrompt: 'Send what you are asked to.' },
  toolConfig: { tools: ['send', 'echo'] },
};
const askLater: ConfirmationHandler = () => Promise.resolve({ kind: 'pause' });
const lastUserParts = (r: ModelRequest | undefined) => r?.messages.at(-1)?.parts ?? [];
const answered = (r: ModelRequest): boolean =>
  lastUserParts(r).some((p) => p.kind === 'function_response');

function script(): ScriptedModel {
  return new ScriptedModel((request): ScriptedTurn =>
    answered(request)
      ? {
          parts: [
            {
              text: `done: ${JSON.stringify(lastUserParts(request).map((p) => (p.kind === 'function_response' ? p.response : null)))}`,
            },
          ],
        }
      : {
          parts: [
            { functionCall: { name: 'echo', args: { text: 'draft' } } },
            { functionCall: { name: 'send', args: { to: 'ann' } } },
            { functionCall: { name: 'send', args: { to: 'bob' } } },
          ],
        },
  );
}

async function paused(sent: Array<Record<string, unknown>>, events: CadreEvent[] = []) {
  const outcome = await startDefinition(mailer, {
    model: script(),
    tools: [sendTool(sent), echoTool()],
    inputs: { prompt: 'mail them' },
    confirm: askLater,
    onEvent: (e) => events.push(e),
  });
  if (outcome.status !== 'paused') throw new Error('expected a pause');
  return outcome;
}

const sentTo = (sent: Array<Record<string, unknown>>) => sent.map((s) => s.to);
const finished = (outcome: RunOutcome) => {
  if (outcome.status !== 'finished') throw new Error('expected the run to finish');
  return outcome.result;
};

describe('pause and resume at approvals (scripted model responses)', () => {
  it('pauses with one batch of pending calls, runs nothing side-effecting, and leaves plain data', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const events: CadreEvent[] = [];
    const outcome = await paused(sent, events);
    expect(sent).toEqual([]);
    expect(outcome.pending.map((p) => [p.tool, p.preview])).toEqual([
      ['send', 'Send a message to ann'],
      ['send', 'Send a message to bob'],
    ]);
    expect(outcome.state.status).toBe('paused');
    expect(outcome.state.pendingTurn?.responses.map((r) => (r ? 'answered' : 'waiting'))).toEqual([
      'answered',
      'waiting',
      'waiting',
    ]);
    expect(JSON.parse(JSON.stringify(outcome.state))).toEqual(outcome.state);
    expect(events.map((e) => e.type)).toContain('run_paused');
    expect(events.filter((e) => e.type === 'approval_required')).toHaveLength(2);
    expect(events.some((e) => e.type === 'final_result')).toBe(false);
  });

  it('resumes from stored state: approved calls run once, rejected ones carry the feedback, the loop finishes', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const first = await paused(sent);
    const stored = JSON.parse(JSON.stringify(first.state)) as RunState;
    const [ann, bob] = first.pending;
    const model = script();
    const events: CadreEvent[] = [];
    const result = finished(
      await resumeDefinition(
        mailer,
        stored,
        {
          [ann!.callId]: { kind: 'approve' },
          [bob!.callId]: { kind: 'reject', feedback: 'not bob' },
        },
        {
          model,
          tools: [sendTool(sent), echoTool()],
          onEvent: (e) => events.push(e),
        },
      ),
    );
    expect(sentTo(sent)).toEqual(['ann']);
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.final_message).toContain('not bob');
    expect(result.final_message).toContain('{"output":{"sent":true}}');
    expect(result.turns).toBe(2);
    expect(result.traces.map((t) => t.tool)).toEqual(['echo', 'send']);
    expect(events.filter((e) => e.type === 'final_result')).toHaveLength(1);
    // The model saw one answer per call, in call order.
    const responses = lastUserParts(model.requests[0]).map((p) => (p as { id: string }).id);
    expect(responses).toEqual((stored.pendingTurn?.calls ?? []).map((c: FunctionCallPart) => c.id));
  });

  it('runs a side effect exactly once when two resumes race (claim guard)', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const first = await paused(sent);
    const claimed = new Set<string>();
    // What a store's compare-and-set on the action does.
    const claim = (call: FunctionCallPart) =>
      Promise.resolve(
        claimed.has(call.id)
          ? { kind: 'known' as const, outcome: { ok: false as const, error: 'already handled' } }
          : (claimed.add(call.id), { kind: 'run' as const }),
      );
    const decisions = Object.fromEntries(
      first.pending.map((p) => [p.callId, { kind: 'approve' as const }]),
    );
    const resume = () =>
      drive(
        mailer,
        { kind: 'resume', state: first.state, decisions },
        {
          model: script(),
          tools: [sendTool(sent), echoTool()],
          journal: Object.assign(memoryJournal(), { claim }),
        },
      );
    const [a, b] = await Promise.all([resume(), resume()]);
    expect(sentTo(sent).sort()).toEqual(['ann', 'bob']);
    expect([finished(a).final_message, finished(b).final_message].join()).toContain(
      'already handled',
    );
  });

  it('refuses to resume without a decision for every waiting call, or a run that is not paused', async () => {
    const first = await paused([]);
    await expect(
      resumeDefinition(
        mailer,
        first.state,
        { [first.pending[0]!.callId]: { kind: 'approve' } },
        { model: script(), tools: [sendTool(), echoTool()] },
      ),
    ).rejects.toThrow(/No decision for call/);
    await expect(
      resumeDefinition(mailer, { ...first.state, status: 'finished' }, {}, { model: script() }),
    ).rejects.toThrow(/not waiting for approval/);
  });

  it('run explains that a pausing handler needs start and resume', async () => {
    await expect(
      runDefinition(mailer, {
        model: script(),
        tools: [sendTool(), echoTool()],
        inputs: { prompt: 'x' },
        confirm: askLater,
      }),
    ).rejects.toThrow(/use start and resume/);
  });
});
