import { describe, expect, it } from 'vitest';
import type { RunState } from '../../contracts/run-state.js';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { FunctionCallPart, ModelRequest } from '../../model/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import { echoTool, sendTool } from '../../testing/test-tools.js';
import { approvalPath, type ConfirmationRequest } from '../../contracts/confirmation.js';
import type { ClaimResult } from '../calls/call-environment.js';
import { type ExecutionOptions } from '../loop/executor.js';
import { resume, run, start } from '../run-verbs.js';
import { memoryJournal } from '../loop/memory-journal.js';
import { agentCatalog as catalog } from '../../testing/agent-catalog.js';

const def = (name: string, tools: string[]): AgentDefinition => ({
  name,
  description: name,
  promptConfig: { systemPrompt: `ROLE:${name}` },
  toolConfig: { tools },
});
const role = (r: ModelRequest): string => /ROLE:(\S+)/.exec(r.systemInstruction ?? '')?.[1] ?? '?';
const lastText = (r: ModelRequest): string => JSON.stringify(r.messages.at(-1) ?? null);
const answered = (r: ModelRequest): boolean =>
  (r.messages.at(-1)?.parts ?? []).some((p) => p.kind === 'function_response');
const call = (name: string, args: Record<string, unknown>): ScriptedTurn => ({
  parts: [{ functionCall: { name, args } }],
});

/**
 * assistant › mailer › send, with `helper` (no approval needed) beside
 * mailer when `parallel` is set, and a second mailer when `twice` is set.
 */
function tree(opts: { parallel?: boolean; twice?: boolean } = {}) {
  const mailer = def('mailer', ['send']);
  const helper = def('helper', ['echo']);
  const assistant = def('assistant', ['mailer', 'helper']);
  const model = new ScriptedModel((r): ScriptedTurn => {
    switch (role(r)) {
      case 'mailer':
        return answered(r)
          ? { parts: [{ text: `mailer heard: ${lastText(r)}` }] }
          : call('send', { to: /to (\w+)/.exec(JSON.stringify(r.messages[0]))?.[1] ?? 'bob' });
      case 'helper':
        return answered(r) ? { parts: [{ text: 'helper done' }] } : call('echo', { text: 'hi' });
      default: {
        if (answered(r)) return { parts: [{ text: `assistant heard: ${lastText(r)}` }] };
        const parts: ScriptedTurn['parts'] = [
          { functionCall: { name: 'mailer', args: { prompt: 'mail to ann' } } },
        ];
        if (opts.twice)
          parts.push({ functionCall: { name: 'mailer', args: { prompt: 'mail to cy' } } });
        if (opts.parallel)
          parts.push({ functionCall: { name: 'helper', args: { prompt: 'help' } } });
        return { parts };
      }
    }
  });
  return { model, agents: catalog(mailer, helper, assistant), assistant };
}

/** A store's compare-and-set, in memory: a call id runs once. */
function claims() {
  const seen = new Map<string, ClaimResult>();
  return {
    ids: () => [...seen.keys()],
    claim: (c: FunctionCallPart): Promise<ClaimResult> => {
      const known = seen.get(c.id);
      if (known) return Promise.resolve(known);
      seen.set(c.id, { kind: 'known', outcome: { ok: true, output: { sent: 'earlier' } } });
      return Promise.resolve({ kind: 'run' });
    },
  };
}

describe('a subagent’s side effect asks the person (scripted model)', () => {
  it('in process: the handler is asked with the path, and an approval runs the child’s call once', async () => {
    const { model, agents, assistant } = tree();
    const sent: Array<Record<string, unknown>> = [];
    const asked: ConfirmationRequest[] = [];
    const result = await run(assistant, {
      model,
      tools: [sendTool(sent), echoTool()],
      agents,
      inputs: { prompt: 'go' },
      confirm: (request) => (asked.push(request), Promise.resolve({ kind: 'approve' })),
    });
    expect(sent).toEqual([{ to: 'ann' }]);
    expect(asked.map(approvalPath)).toEqual(['assistant › mailer › send']);
    expect(asked[0]?.callId).toMatch(/^mailer@[0-9a-f]{8}\//);
    expect(result.final_message).toContain('sent');
  });

  it('in process: a rejection reaches the child that asked, with the feedback', async () => {
    const { model, agents, assistant } = tree();
    const sent: Array<Record<string, unknown>> = [];
    await run(assistant, {
      model,
      tools: [sendTool(sent), echoTool()],
      agents,
      inputs: { prompt: 'go' },
      confirm: () => Promise.resolve({ kind: 'reject', feedback: 'not to ann today' }),
    });
    expect(sent).toEqual([]);
    const child = model.requests.find((r) => role(r) === 'mailer' && answered(r));
    expect(lastText(child as ModelRequest)).toContain('not to ann today');
    // The root's own calls were never refused: it hears the child's report.
    const root = model.requests.filter((r) => role(r) === 'assistant').at(-1);
    expect(lastText(root as ModelRequest)).toContain('mailer heard');
  });

  it('durable: the whole run pauses, the child resumes where it stopped, the send runs once', async () => {
    const { model, agents, assistant } = tree({ parallel: true });
    const sent: Array<Record<string, unknown>> = [];
    const events: CadreEvent[] = [];
    const guard = claims();
    const options: ExecutionOptions = {
      model,
      tools: [sendTool(sent), echoTool()],
      agents,
      inputs: { prompt: 'go' },
      confirm: () => Promise.resolve({ kind: 'pause' }),
      journal: Object.assign(memoryJournal(), { claim: guard.claim }),
      onEvent: (e) => events.push(e),
    };
    const paused = await start(assistant, options);
    if (paused.status !== 'paused') throw new Error('expected a pause');
    expect(sent).toEqual([]);
    expect(paused.pending).toHaveLength(1);
    const [waiting] = paused.pending;
    expect(waiting?.path).toEqual(['assistant', 'mailer', 'send']);
    // The sibling that needed no approval ran to its end before the pause.
    expect(events.some((e) => e.type === 'subagent_finished' && e.data.agent === 'helper')).toBe(
      true,
    );
    // Stored as plain data, as a server keeps it.
    const stored = JSON.parse(JSON.stringify(paused.state)) as RunState;
    const child = Object.values(stored.pendingTurn?.children ?? {})[0];
    expect(child?.state.turns).toBe(1);
    const mailerTurns = () => model.requests.filter((r) => role(r) === 'mailer').length;
    const before = mailerTurns();
    const decisions = { [waiting?.callId ?? '']: { kind: 'approve' as const } };
    const done = await resume(assistant, stored, decisions, { ...options, confirm: undefined });
    expect(done.status).toBe('finished');
    expect(sent).toEqual([{ to: 'ann' }]);
    // The child went on from its own conversation: one more turn, not a fresh start.
    expect(mailerTurns()).toBe(before + 1);
    const lastMailer = model.requests.filter((r) => role(r) === 'mailer').at(-1);
    expect(lastMailer?.messages.filter((m) => m.role === 'model')).toHaveLength(1);
    // A second resume of the same stored state (a takeover) does not send again.
    await resume(assistant, stored, decisions, options);
    expect(sent).toEqual([{ to: 'ann' }]);
    expect(guard.ids()).toEqual([waiting?.callId]);
  });

  it('durable: two children waiting are one batch with a decision each', async () => {
    const { model, agents, assistant } = tree({ twice: true });
    const sent: Array<Record<string, unknown>> = [];
    const options: ExecutionOptions = {
      model,
      tools: [sendTool(sent), echoTool()],
      agents,
      inputs: { prompt: 'go' },
      confirm: () => Promise.resolve({ kind: 'pause' }),
    };
    const paused = await start(assistant, options);
    if (paused.status !== 'paused') throw new Error('expected a pause');
    expect(paused.pending.map((p) => p.args)).toEqual([{ to: 'ann' }, { to: 'cy' }]);
    const [ann, cy] = paused.pending.map((p) => p.callId);
    expect(ann).not.toBe(cy);
    const done = await resume(
      assistant,
      paused.state,
      {
        [ann ?? '']: { kind: 'approve' },
        [cy ?? '']: { kind: 'reject', feedback: 'cy is on leave' },
      },
      options,
    );
    expect(done.status).toBe('finished');
    expect(sent).toEqual([{ to: 'ann' }]);
    const heard = model.requests
      .filter((r) => role(r) === 'mailer' && answered(r))
      .map((r) => lastText(r));
    expect(heard.filter((t) => t.includes('cy is on leave'))).toHaveLength(1);
  });

  it('durable: a missing decision for a child’s call is named before anything runs', async () => {
    const { model, agents, assistant } = tree();
    const options: ExecutionOptions = {
      model,
      tools: [sendTool([]), echoTool()],
      agents,
      inputs: { prompt: 'go' },
      confirm: () => Promise.resolve({ kind: 'pause' }),
    };
    const paused = await start(assistant, options);
    if (paused.status !== 'paused') throw new Error('expected a pause');
    await expect(resume(assistant, paused.state, {}, options)).rejects.toThrow(/mailer@/);
  });

  it('durable: a `task` child waits and resumes like a named agent', async () => {
    const mailer = def('mailer', ['send']);
    const boss = def('boss', ['task']);
    const sent: Array<Record<string, unknown>> = [];
    const model = new ScriptedModel((r): ScriptedTurn => {
      if (role(r) === 'mailer')
        return answered(r) ? { parts: [{ text: 'mailed' }] } : call('send', { to: 'dee' });
      return answered(r)
        ? { parts: [{ text: `boss heard: ${lastText(r)}` }] }
        : call('task', { agent: 'mailer', query: 'mail dee' });
    });
    const options: ExecutionOptions = {
      model,
      tools: [sendTool(sent)],
      agents: catalog(mailer, boss),
      inputs: { prompt: 'go' },
      confirm: () => Promise.resolve({ kind: 'pause' }),
    };
    const paused = await start(boss, options);
    if (paused.status !== 'paused') throw new Error('expected a pause');
    expect(paused.pending.map((p) => p.path)).toEqual([['boss', 'mailer', 'send']]);
    const done = await resume(
      boss,
      paused.state,
      { [paused.pending[0]?.callId ?? '']: { kind: 'approve' } },
      options,
    );
    expect(sent).toEqual([{ to: 'dee' }]);
    expect(done.status === 'finished' && done.result.final_message).toContain('mailed');
  });

  it('in process: a router domain’s call asks the handler with its path', async () => {
    const mailer = def('mailer', ['send']);
    const router: AgentDefinition = {
      ...def('assistant', []),
      router: { domains: ['mailer'] },
    };
    const sent: Array<Record<string, unknown>> = [];
    const asked: string[] = [];
    const model = new ScriptedModel((r): ScriptedTurn => {
      if (r.tools.some((t) => t.name === 'route'))
        return call('route', { targets: [{ domain: 'mailer', intent: 'mail ann' }] });
      if (role(r) === 'mailer')
        return answered(r) ? { parts: [{ text: 'mailed' }] } : call('send', { to: 'ann' });
      return { parts: [{ text: 'all done' }] };
    });
    const result = await run(router, {
      model,
      tools: [sendTool(sent)],
      agents: catalog(mailer, router),
      inputs: { prompt: 'mail ann' },
      confirm: (request) => (
        asked.push(approvalPath(request)),
        Promise.resolve({ kind: 'approve' })
      ),
    });
    expect(result.terminate_reason).toBe('GOAL');
    expect(asked).toEqual(['assistant › mailer › send']);
    expect(sent).toEqual([{ to: 'ann' }]);
  });

  it('durable: a resumed child that asks again pauses the run again, and goes on from there', async () => {
    const mailer = def('mailer', ['send']);
    const boss = def('boss', ['mailer']);
    const sent: Array<Record<string, unknown>> = [];
    const model = new ScriptedModel((r): ScriptedTurn => {
      if (role(r) === 'mailer') {
        const answers = r.messages.filter((m) =>
          m.parts.some((p) => p.kind === 'function_response'),
        );
        if (answers.length === 0) return call('send', { to: 'ann' });
        if (answers.length === 1) return call('send', { to: 'bo' });
        return { parts: [{ text: 'both mailed' }] };
      }
      return answered(r)
        ? { parts: [{ text: `boss heard: ${lastText(r)}` }] }
        : call('mailer', { prompt: 'go' });
    });
    const options: ExecutionOptions = {
      model,
      tools: [sendTool(sent)],
      agents: catalog(mailer, boss),
      inputs: { prompt: 'go' },
      confirm: () => Promise.resolve({ kind: 'pause' }),
    };
    const first = await start(boss, options);
    if (first.status !== 'paused') throw new Error('expected a pause');
    const second = await resume(
      boss,
      first.state,
      { [first.pending[0]?.callId ?? '']: { kind: 'approve' } },
      options,
    );
    if (second.status !== 'paused') throw new Error('expected a second pause');
    expect(sent).toEqual([{ to: 'ann' }]);
    expect(second.pending.map((p) => p.args)).toEqual([{ to: 'bo' }]);
    expect(second.pending[0]?.callId).not.toBe(first.pending[0]?.callId);
    const child = Object.values(second.state.pendingTurn?.children ?? {})[0];
    expect(child?.state.turns).toBe(2);
    const done = await resume(
      boss,
      JSON.parse(JSON.stringify(second.state)) as RunState,
      { [second.pending[0]?.callId ?? '']: { kind: 'approve' } },
      options,
    );
    expect(done.status === 'finished' && done.result.final_message).toContain('both mailed');
    expect(sent).toEqual([{ to: 'ann' }, { to: 'bo' }]);
    // The boss took one turn before the pauses and one after: it was never asked again in between.
    expect(model.requests.filter((r) => role(r) === 'boss')).toHaveLength(2);
  });
});
