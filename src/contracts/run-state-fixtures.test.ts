import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.js';
import type { ModelRequest } from '../model/types.js';
import type { RunOutcome } from '../runtime/loop/executor.js';
import type { ConfirmationHandler } from './confirmation.js';
import { resume } from '../runtime/run-verbs.js';
import { echoTool, sendTool } from '../testing/test-tools.js';
import { writeFileTool } from '../tools/builtin/index.js';
import type { AwaitedCall, RunState } from './run-state.js';
import { readRunState } from './run-state-version.js';
import {
  roleAgent as def,
  agentCatalog as catalog,
  requestRole as role,
} from '../testing/agent-catalog.js';

/**
 * Paused runs as earlier versions of Cadre stored them (each file names the
 * commit whose code wrote it, by pausing the same scripted run). A release
 * must still resume them: they predate approvals bound to what was approved,
 * so the person is asked once more (fail closed), and once they approve the
 * waiting call runs once and the run goes on from where it stopped.
 */
const FIXTURES = new URL('./run-state-fixtures/', import.meta.url);

interface Fixture {
  about: string;
  writtenBy: string;
  state: unknown;
  pending: AwaitedCall[];
}

const fixture = async (name: string): Promise<Fixture> =>
  JSON.parse(await readFile(new URL(name, FIXTURES), 'utf8')) as Fixture;

const answered = (r: ModelRequest): boolean =>
  (r.messages.at(-1)?.parts ?? []).some((p) => p.kind === 'function_response');
const lastText = (r: ModelRequest): string => JSON.stringify(r.messages.at(-1) ?? null);

/** The same agents' answers the earlier code was scripted with, for what comes after the pause. */
const afterPause = () =>
  new ScriptedModel((r): ScriptedTurn => {
    switch (role(r)) {
      case 'mailer':
        return { parts: [{ text: `mailer heard: ${lastText(r)}` }] };
      case 'helper':
      case 'news':
        throw new Error(`${role(r)} had finished before the pause: it must not be asked again`);
      case 'router':
        throw new Error('the route was chosen before the pause: it must not be asked again');
      case 'assistant':
        return { parts: [{ text: `assistant heard: ${lastText(r)}` }] };
      default:
        return answered(r)
          ? { parts: [{ text: 'Wrote it.' }] }
          : { parts: [{ text: `synth of: ${lastText(r)}` }] };
    }
  });

const approveAll = (pending: AwaitedCall[]) =>
  Object.fromEntries(pending.map((p) => [p.callId, { kind: 'approve' as const }]));

/** The person, asked again because the stored approval is bound to nothing: they approve. */
function askedAgain(): { confirm: ConfirmationHandler; reasons: string[] } {
  const reasons: string[] = [];
  return {
    reasons,
    confirm: (request) => {
      reasons.push(request.reason);
      return Promise.resolve({ kind: 'approve' });
    },
  };
}

function finished(outcome: RunOutcome) {
  if (outcome.status !== 'finished') throw new Error(`expected the end, got ${outcome.status}`);
  return outcome.result;
}

let workspace: string | undefined;
afterEach(async () => {
  if (workspace) await rm(workspace, { recursive: true, force: true });
  workspace = undefined;
});

describe('paused runs stored by earlier versions resume (scripted model)', () => {
  it('every fixture reads as the current RunState', async () => {
    const names = (await readdir(FIXTURES)).filter((n) => n.endsWith('.json'));
    expect(names.length).toBeGreaterThanOrEqual(3);
    for (const name of names) {
      const { state, writtenBy, pending } = await fixture(name);
      expect(writtenBy).toMatch(/^[0-9a-f]{7,40}$/);
      const read = await readRunState(state);
      expect(read.status).toBe('paused');
      expect(pending.length).toBeGreaterThan(0);
    }
  });

  it('a tool call waiting for approval (the first state that can pause, 2026-11-22)', async () => {
    const { state, pending } = await fixture('2026-11-22-paused-tool-call.json');
    workspace = await mkdtemp(join(tmpdir(), 'cadre-old-state-'));
    const model = afterPause();
    const writer = def('writer', ['write_file']);
    const person = askedAgain();
    const result = finished(
      await resume(writer, state as RunState, approveAll(pending), {
        confirm: person.confirm,
        model,
        tools: [writeFileTool],
        workspace,
      }),
    );
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.final_message).toBe('Wrote it.');
    expect(await readFile(join(workspace, 'note.txt'), 'utf8')).toBe('hi');
    expect(person.reasons).toEqual([expect.stringMatching(/not bound to a call/)]);
    // The conversation went on from the stored one: the model sees its call answered.
    expect(model.requests).toHaveLength(1);
    const sent = model.requests[0]?.messages.at(-1)?.parts[0];
    expect(sent).toMatchObject({ kind: 'function_response', id: 'call_1_1', name: 'write_file' });
  });

  it('a subagent waiting inside its parent’s turn (2026-11-26)', async () => {
    const { state, pending } = await fixture('2026-11-26-paused-subagent.json');
    expect(pending.map((p) => p.path)).toEqual([['assistant', 'mailer', 'send']]);
    const sent: Array<Record<string, unknown>> = [];
    const model = afterPause();
    const assistant = def('assistant', ['mailer', 'helper']);
    const person = askedAgain();
    const result = finished(
      await resume(assistant, state as RunState, approveAll(pending), {
        confirm: person.confirm,
        model,
        tools: [sendTool(sent), echoTool()],
        agents: catalog(def('mailer', ['send']), def('helper', ['echo']), assistant),
      }),
    );
    expect(sent).toEqual([{ to: 'ann' }]);
    expect(person.reasons).toHaveLength(1);
    // The child went on from its own conversation: one more turn, not a fresh start.
    const mailer = model.requests.filter((r) => role(r) === 'mailer');
    expect(mailer).toHaveLength(1);
    expect(mailer[0]?.messages.filter((m) => m.role === 'model')).toHaveLength(1);
    // The helper had finished before the pause: resuming never asks it again.
    expect(model.requests.filter((r) => role(r) === 'helper')).toHaveLength(0);
    expect(result.final_message).toContain('assistant heard');
    expect(result.final_message).toContain('mailer heard');
  });

  it('a router whose domain waits, with its code memo (2026-11-26)', async () => {
    const { state, pending } = await fixture('2026-11-26-paused-router.json');
    const sent: Array<Record<string, unknown>> = [];
    const model = afterPause();
    const router = def('assistant', [], {
      router: { domains: ['mailer', 'news'], domainTimeoutSecs: 30 },
    });
    const person = askedAgain();
    const result = finished(
      await resume(router, state as RunState, approveAll(pending), {
        confirm: person.confirm,
        model,
        tools: [sendTool(sent), echoTool()],
        agents: catalog(def('mailer', ['send']), def('news', []), router),
      }),
    );
    expect(result.terminate_reason).toBe('GOAL');
    expect(sent).toEqual([{ to: 'ann' }]);
    expect(person.reasons).toHaveLength(1);
    const count = (who: string) => model.requests.filter((r) => role(r) === who).length;
    expect([count('router'), count('news'), count('mailer'), count('synth')]).toEqual([0, 0, 1, 1]);
    expect(result.content).toContain('mailer heard');
    expect(result.content).toContain('markets up');
  });
});
