import { describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import type { ToolCallOutcome } from '../../policy/interceptors.js';
import type { PolicyRule } from '../../policy/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import { echoTool, sendTool } from '../../testing/test-tools.js';
import { defineTool } from '../../tools/types.js';
import type { ConfirmationRequest } from '../../contracts/confirmation.js';
import { resume, run, start } from '../run-verbs.js';

const agent: AgentDefinition = {
  name: 'a',
  description: 'a',
  promptConfig: {},
  toolConfig: { tools: ['echo', 'send', 'note'] },
};
const lastParts = (r: ModelRequest) => r.messages.at(-1)?.parts ?? [];
const answered = (r: ModelRequest) => lastParts(r).some((p) => p.kind === 'function_response');
/** Scripted: calls `tool` once, then reports the responses it got as its answer. */
const calling = (tool: string, args: Record<string, unknown>) =>
  new ScriptedModel((r): ScriptedTurn =>
    answered(r)
      ? { parts: [{ text: JSON.stringify(lastParts(r)) }] }
      : { parts: [{ functionCall: { name: tool, args } }] },
  );
const rule = (tool: string, decision: PolicyRule['decision']): PolicyRule => ({
  tool,
  decision,
  reason: `${tool} is ${decision} by the test policy`,
});
/** A side effect that asks for no approval by default. */
const noteTool = (written: string[]) =>
  defineTool<{ text: string }>({
    name: 'note',
    description: 'Write a note.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    sideEffect: true,
    defaultApproval: 'auto',
    execute: (args) => (written.push(args.text), Promise.resolve({ ok: true })),
  });

const tools = (o: {
  calls?: Array<Record<string, unknown>>;
  sent?: Array<Record<string, unknown>>;
  written?: string[];
}) => [echoTool(o.calls), sendTool(o.sent), noteTool(o.written ?? [])];

describe('one gate for every tool call (scripted model responses)', () => {
  it('a deny rule on a read-only tool is honoured: the tool never runs and the model is told why', async () => {
    const calls: Array<Record<string, unknown>> = [];
    const result = await run(agent, {
      model: calling('echo', { text: 'secret' }),
      tools: tools({ calls }),
      inputs: { prompt: 'go' },
      policy: { rules: [rule('echo', 'deny')], sideEffects: 'on' },
    });
    expect(calls).toEqual([]);
    expect(result.final_message).toContain('Refused: echo is deny by the test policy');
  });

  it('require_approval on a read-only tool asks the confirmation handler, and a refusal keeps it from running', async () => {
    const calls: Array<Record<string, unknown>> = [];
    const asked: ConfirmationRequest[] = [];
    await run(agent, {
      model: calling('echo', { text: 'x' }),
      tools: tools({ calls }),
      inputs: { prompt: 'go' },
      policy: { rules: [rule('echo', 'require_approval')], sideEffects: 'on' },
      confirm: (request) => (asked.push(request), Promise.resolve({ kind: 'reject' })),
    });
    expect(asked.map((a) => [a.tool, a.reason])).toEqual([
      ['echo', 'echo is require_approval by the test policy'],
    ]);
    expect(calls).toEqual([]);
  });

  it('a side effect with defaultApproval auto still obeys the kill switch and deny rules', async () => {
    for (const policy of [
      { rules: [], sideEffects: 'off' as const },
      { rules: [rule('note', 'deny')], sideEffects: 'on' as const },
    ]) {
      const written: string[] = [];
      const result = await run(agent, {
        model: calling('note', { text: 'hello' }),
        tools: tools({ written }),
        inputs: { prompt: 'go' },
        policy,
        confirm: () => Promise.resolve({ kind: 'approve' }),
      });
      expect(written).toEqual([]);
      expect(result.final_message).toContain('Refused:');
    }
    // Without a policy, auto means what it says: it runs without asking.
    const written: string[] = [];
    await run(agent, {
      model: calling('note', { text: 'hello' }),
      tools: tools({ written }),
      inputs: { prompt: 'go' },
    });
    expect(written).toEqual(['hello']);
  });

  it('observers hear the outcome of a call that was approved on resume', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const outcomes: Array<[string, ToolCallOutcome['status']]> = [];
    const interceptors = [
      {
        name: 'observer',
        after: (c: { tool: string }, o: ToolCallOutcome) => void outcomes.push([c.tool, o.status]),
      },
    ];
    const first = await start(agent, {
      model: calling('send', { to: 'bob' }),
      tools: tools({ sent }),
      inputs: { prompt: 'go' },
      interceptors,
      confirm: () => Promise.resolve({ kind: 'pause' }),
    });
    expect(first.status).toBe('paused');
    if (first.status !== 'paused') return;
    const resumed = await resume(
      agent,
      first.state,
      { [first.pending[0]!.callId]: { kind: 'approve' } },
      { model: calling('send', { to: 'bob' }), tools: tools({ sent }), interceptors },
    );
    expect(resumed.status).toBe('finished');
    expect(sent).toEqual([{ to: 'bob' }]);
    expect(outcomes).toEqual([
      ['send', 'rejected'],
      ['send', 'completed'],
    ]);
  });
});
