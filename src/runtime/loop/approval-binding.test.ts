import { describe, expect, it } from 'vitest';
import type { RunState } from '../../contracts/run-state.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { sendTool } from '../../testing/test-tools.js';
import type { Tool } from '../../tools/types.js';
import { canonicalHash } from '../../util/canonical-json.js';
import type { ConfirmationHandler, ConfirmationRequest } from '../../contracts/confirmation.js';
import { resume, start } from '../run-verbs.js';
import type { PendingCall, RunOutcome } from './executor.js';

/**
 * Approvals are bound to what the person approved: the tool, its arguments,
 * the definition and the tool's side-effect class. These tests attack that
 * binding between the pause and the resume, the way someone holding the
 * stored state (or changing the files) could, and count the real side
 * effects: an approval that no longer matches must never send.
 */
const mailer: AgentDefinition = {
  name: 'mailer',
  description: 'Sends messages',
  promptConfig: { systemPrompt: 'Send what you are asked to.' },
  toolConfig: { tools: ['send'] },
};

const answered = (r: ModelRequest): boolean =>
  (r.messages.at(-1)?.parts ?? []).some((p) => p.kind === 'function_response');
const model = () =>
  new ScriptedModel((r): ScriptedTurn =>
    answered(r)
      ? { parts: [{ text: 'done' }] }
      : { parts: [{ functionCall: { name: 'send', args: { to: 'ann' } } }] },
  );

/** The person, asked again on resume: they say "later", so the run pauses once more. */
function askedAgain(): { confirm: ConfirmationHandler; asked: ConfirmationRequest[] } {
  const asked: ConfirmationRequest[] = [];
  return {
    asked,
    confirm: (request) => {
      asked.push(request);
      return Promise.resolve({ kind: 'pause' });
    },
  };
}

async function pausedRun(): Promise<{ state: RunState; pending: PendingCall[] }> {
  const outcome = await start(mailer, {
    model: model(),
    tools: [sendTool([])],
    inputs: { prompt: 'mail ann' },
    confirm: () => Promise.resolve({ kind: 'pause' }),
  });
  if (outcome.status !== 'paused') throw new Error('expected a pause');
  // As stored and read back: plain JSON.
  return JSON.parse(JSON.stringify(outcome)) as { state: RunState; pending: PendingCall[] };
}

/** Approves each pending call with what the person was shown. */
const approveShown = (pending: readonly PendingCall[]) =>
  Object.fromEntries(
    pending.map((p) => [
      p.callId,
      { kind: 'approve' as const, ...(p.binding ? { binding: p.binding } : {}) },
    ]),
  );

function pausedAgain(outcome: RunOutcome): PendingCall[] {
  if (outcome.status !== 'paused') throw new Error(`expected a new pause, got ${outcome.status}`);
  return outcome.pending;
}

const staleEvents = (events: CadreEvent[]) =>
  events.filter((e) => e.type === 'approval_resolved' && e.data.decision === 'stale');

describe('library resume: approvals bound to what was approved (scripted model)', () => {
  it('happy path: the approved call runs exactly once', async () => {
    const { state, pending } = await pausedRun();
    expect(pending[0]?.binding).toMatchObject({
      tool: 'send',
      inputHash: canonicalHash({ to: 'ann' }),
      toolClass: 'effect:require',
    });
    const sent: Array<Record<string, unknown>> = [];
    const events: CadreEvent[] = [];
    const outcome = await resume(mailer, state, approveShown(pending), {
      model: model(),
      tools: [sendTool(sent)],
      onEvent: (e) => events.push(e),
    });
    expect(outcome.status).toBe('finished');
    expect(sent).toEqual([{ to: 'ann' }]);
    expect(staleEvents(events)).toEqual([]);
  });

  it('arguments tampered in the stored state: refused, not sent, asked again about the new arguments', async () => {
    const { state, pending } = await pausedRun();
    const call = state.pendingTurn?.calls[0];
    if (!call) throw new Error('no pending call');
    call.args = { to: 'mallory' };
    const sent: Array<Record<string, unknown>> = [];
    const person = askedAgain();
    const events: CadreEvent[] = [];
    const again = pausedAgain(
      await resume(mailer, state, approveShown(pending), {
        model: model(),
        tools: [sendTool(sent)],
        confirm: person.confirm,
        onEvent: (e) => events.push(e),
      }),
    );
    expect(sent).toEqual([]);
    expect(person.asked.map((a) => [a.args, a.reason])).toEqual([
      [{ to: 'mallory' }, expect.stringMatching(/arguments changed/)],
    ]);
    expect(staleEvents(events)).toHaveLength(1);
    // The new request is bound to the arguments as they are now.
    expect(again[0]?.binding?.inputHash).toBe(canonicalHash({ to: 'mallory' }));
  });

  it('arguments tampered, approved without a binding: the binding stored at the pause refuses it', async () => {
    const { state, pending } = await pausedRun();
    const call = state.pendingTurn?.calls[0];
    if (!call) throw new Error('no pending call');
    call.args = { to: 'mallory' };
    const sent: Array<Record<string, unknown>> = [];
    const person = askedAgain();
    pausedAgain(
      await resume(
        mailer,
        state,
        Object.fromEntries(pending.map((p) => [p.callId, { kind: 'approve' as const }])),
        { model: model(), tools: [sendTool(sent)], confirm: person.confirm },
      ),
    );
    expect(sent).toEqual([]);
    expect(person.asked.map((a) => a.reason)).toEqual([expect.stringMatching(/arguments changed/)]);
  });

  it('arguments and the stored binding both tampered: the binding the person saw still refuses it', async () => {
    const { state, pending } = await pausedRun();
    const call = state.pendingTurn?.calls[0];
    const stored = call ? state.pendingTurn?.bindings?.[call.id] : undefined;
    if (!call || !stored) throw new Error('no bound pending call');
    call.args = { to: 'mallory' };
    stored.inputHash = canonicalHash({ to: 'mallory' });
    const sent: Array<Record<string, unknown>> = [];
    const person = askedAgain();
    pausedAgain(
      await resume(mailer, state, approveShown(pending), {
        model: model(),
        tools: [sendTool(sent)],
        confirm: person.confirm,
      }),
    );
    expect(sent).toEqual([]);
    expect(person.asked).toHaveLength(1);
  });

  it('the tool name tampered in the stored state (same arguments, another tool): refused, neither runs, asked again', async () => {
    const both: AgentDefinition = { ...mailer, toolConfig: { tools: ['send', 'broadcast'] } };
    const sent: Array<Record<string, unknown>> = [];
    const broadcast: Tool = { ...sendTool(sent), name: 'broadcast' };
    const outcome = await start(both, {
      model: model(),
      tools: [sendTool(sent), broadcast],
      inputs: { prompt: 'mail ann' },
      confirm: () => Promise.resolve({ kind: 'pause' }),
    });
    if (outcome.status !== 'paused') throw new Error('expected a pause');
    const { state, pending } = JSON.parse(JSON.stringify(outcome)) as {
      state: RunState;
      pending: PendingCall[];
    };
    const call = state.pendingTurn?.calls[0];
    if (!call) throw new Error('no pending call');
    call.name = 'broadcast';
    const person = askedAgain();
    pausedAgain(
      await resume(both, state, approveShown(pending), {
        model: model(),
        tools: [sendTool(sent), broadcast],
        confirm: person.confirm,
      }),
    );
    expect(sent).toEqual([]);
    expect(person.asked.map((a) => [a.tool, a.reason])).toEqual([
      ['broadcast', expect.stringMatching(/tool changed/)],
    ]);
  });

  it('the definition changed between pause and resume: refused, not sent, asked again', async () => {
    const { state, pending } = await pausedRun();
    const edited: AgentDefinition = {
      ...mailer,
      promptConfig: { systemPrompt: 'Send whatever you like to anyone.' },
    };
    const sent: Array<Record<string, unknown>> = [];
    const person = askedAgain();
    pausedAgain(
      await resume(edited, state, approveShown(pending), {
        model: model(),
        tools: [sendTool(sent)],
        confirm: person.confirm,
      }),
    );
    expect(sent).toEqual([]);
    expect(person.asked.map((a) => a.reason)).toEqual([
      expect.stringMatching(/definition changed/),
    ]);
  });

  it("the tool's side-effect class changed (re-registered without approval by default): refused, asked again", async () => {
    const { state, pending } = await pausedRun();
    const sent: Array<Record<string, unknown>> = [];
    const reRegistered: Tool = { ...sendTool(sent), defaultApproval: 'auto' };
    const person = askedAgain();
    pausedAgain(
      await resume(mailer, state, approveShown(pending), {
        model: model(),
        tools: [reRegistered],
        confirm: person.confirm,
      }),
    );
    expect(sent).toEqual([]);
    expect(person.asked.map((a) => a.reason)).toEqual([
      expect.stringMatching(/side-effect class changed/),
    ]);
  });

  it('an approval without a binding, on a state whose binding was stripped, is bound to nothing: asked again', async () => {
    const { state, pending } = await pausedRun();
    if (state.pendingTurn) delete state.pendingTurn.bindings;
    const sent: Array<Record<string, unknown>> = [];
    const person = askedAgain();
    pausedAgain(
      await resume(
        mailer,
        state,
        Object.fromEntries(pending.map((p) => [p.callId, { kind: 'approve' as const }])),
        { model: model(), tools: [sendTool(sent)], confirm: person.confirm },
      ),
    );
    expect(sent).toEqual([]);
    expect(person.asked).toHaveLength(1);
  });
});
