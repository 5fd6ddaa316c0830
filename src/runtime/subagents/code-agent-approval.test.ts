import { describe, expect, it } from 'vitest';
import type { RunState } from '../../contracts/run-state.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { echoTool, sendTool } from '../../testing/test-tools.js';
import { type ExecutionOptions } from '../loop/executor.js';
import { resume, start } from '../run-verbs.js';
import {
  roleAgent as def,
  agentCatalog as catalog,
  requestRole as role,
} from '../../testing/agent-catalog.js';

const answered = (r: ModelRequest): boolean =>
  (r.messages.at(-1)?.parts ?? []).some((p) => p.kind === 'function_response');
const lastText = (r: ModelRequest): string => JSON.stringify(r.messages.at(-1) ?? null);
const call = (name: string, args: Record<string, unknown>): ScriptedTurn => ({
  parts: [{ functionCall: { name, args } }],
});

/** mailer sends once then reports what it heard; news answers at once. */
function domains(model: (r: ModelRequest) => ScriptedTurn | undefined) {
  return new ScriptedModel((r): ScriptedTurn => {
    const own = model(r);
    if (own) return own;
    switch (role(r)) {
      case 'mailer':
        return answered(r)
          ? { parts: [{ text: `mailer heard: ${lastText(r)}` }] }
          : call('send', { to: 'ann' });
      case 'news':
        return { parts: [{ text: 'markets up' }] };
      default:
        return { parts: [{ text: `synth of: ${JSON.stringify(r.messages.at(-1))}` }] };
    }
  });
}

describe('routers and workflows wait for a child’s approval (scripted model)', () => {
  it('a router domain waits; the sibling domain finishes; on resume the route is not asked again and the send runs once', async () => {
    const router = def('assistant', [], {
      router: { domains: ['mailer', 'news'], domainTimeoutSecs: 30 },
    });
    const model = domains((r) =>
      role(r) === 'router'
        ? call('route', {
            targets: [
              { domain: 'mailer', intent: 'mail ann' },
              { domain: 'news', intent: 'headlines' },
            ],
          })
        : undefined,
    );
    const sent: Array<Record<string, unknown>> = [];
    const options: ExecutionOptions = {
      model,
      tools: [sendTool(sent), echoTool()],
      agents: catalog(def('mailer', ['send']), def('news', []), router),
      inputs: { prompt: 'mail ann and tell me the news' },
      confirm: () => Promise.resolve({ kind: 'pause' }),
    };
    const paused = await start(router, options);
    if (paused.status !== 'paused')
      throw new Error(`expected a pause: ${JSON.stringify(paused.result)}`);
    expect(paused.pending.map((p) => p.path)).toEqual([['assistant', 'mailer', 'send']]);
    expect(sent).toEqual([]);
    const stored = JSON.parse(JSON.stringify(paused.state)) as RunState;
    // The router's used time and the waiting child's are kept, to be charged on resume.
    expect(stored.activeMs).toBeGreaterThan(0);
    const child = Object.values(stored.code?.spawns ?? {}).find((s) => 'child' in s);
    expect(child && 'child' in child ? child.child.state.activeMs : 0).toBeGreaterThan(0);
    const done = await resume(
      router,
      stored,
      { [paused.pending[0]?.callId ?? '']: { kind: 'approve' } },
      { ...options, inputs: {} },
    );
    if (done.status !== 'finished') throw new Error('expected the end');
    expect(done.result.terminate_reason).toBe('GOAL');
    expect(sent).toEqual([{ to: 'ann' }]);
    const count = (who: string) => model.requests.filter((r) => role(r) === who).length;
    expect([count('router'), count('news'), count('mailer'), count('synth')]).toEqual([1, 1, 2, 1]);
    expect(done.result.content).toContain('mailer heard');
    expect(done.result.content).toContain('markets up');
  });

  it('a workflow step waits; later steps run after the approval, earlier ones are not run again', async () => {
    const workflow = def('pipeline', [], {
      workflow: {
        kind: 'sequential',
        agents: [def('news', []), def('mailer', ['send']), def('closer', [])],
      },
    });
    const model = domains((r) =>
      role(r) === 'closer' ? { parts: [{ text: 'all wrapped up' }] } : undefined,
    );
    const sent: Array<Record<string, unknown>> = [];
    const options: ExecutionOptions = {
      model,
      tools: [sendTool(sent)],
      inputs: { prompt: 'go' },
      confirm: () => Promise.resolve({ kind: 'pause' }),
    };
    const paused = await start(workflow, options);
    if (paused.status !== 'paused') throw new Error('expected a pause');
    expect(paused.pending.map((p) => p.path)).toEqual([['pipeline', 'mailer', 'send']]);
    expect(model.requests.filter((r) => role(r) === 'closer')).toHaveLength(0);
    const done = await resume(
      workflow,
      JSON.parse(JSON.stringify(paused.state)) as RunState,
      { [paused.pending[0]?.callId ?? '']: { kind: 'reject', feedback: 'not ann' } },
      options,
    );
    if (done.status !== 'finished') throw new Error('expected the end');
    expect(done.result.final_message).toBe('all wrapped up');
    expect(sent).toEqual([]);
    const heard = model.requests.filter((r) => role(r) === 'mailer' && answered(r));
    expect(heard.map(lastText).join()).toContain('not ann');
    expect(model.requests.filter((r) => role(r) === 'news')).toHaveLength(1);
  });
});
