import { describe, expect, it } from 'vitest';
import type { RunState } from '../../contracts/run-state.js';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { sendTool } from '../../testing/test-tools.js';
import type { ExecutionOptions } from '../loop/executor.js';
import { resume, start } from '../run-verbs.js';
import {
  roleAgent as def,
  agentCatalog as catalog,
  requestRole as role,
} from '../../testing/agent-catalog.js';

const answered = (r: ModelRequest): boolean =>
  (r.messages.at(-1)?.parts ?? []).some((p) => p.kind === 'function_response');
const call = (name: string, args: Record<string, unknown>): ScriptedTurn => ({
  parts: [{ functionCall: { name, args } }],
});

/** mailer sends once then says it is done; every other agent answers at once. */
const scripted = () =>
  new ScriptedModel((r): ScriptedTurn => {
    switch (role(r)) {
      case 'router':
        return {
          parts: [
            { text: 'Picking the domains.' },
            {
              functionCall: {
                name: 'route',
                args: {
                  targets: [
                    { domain: 'mailer', intent: 'mail ann' },
                    { domain: 'news', intent: 'headlines' },
                  ],
                },
              },
            },
          ],
        };
      case 'mailer':
        return answered(r) ? { parts: [{ text: 'mail sent' }] } : call('send', { to: 'ann' });
      case 'news':
        return { parts: [{ text: 'markets up' }] };
      default:
        return { parts: [{ text: `${role(r)} done` }] };
    }
  });

/** An event as a reader of the log tells it apart: who emitted it, what, and with what. */
const key = (e: CadreEvent): string => JSON.stringify([e.executionId, e.type, e.message, e.data]);

/** Pauses on the send, resumes with approval; the events of both parts, in order. */
async function pauseAndResume(root: Parameters<typeof start>[0], options: ExecutionOptions) {
  const before: CadreEvent[] = [];
  const paused = await start(root, { ...options, onEvent: (e) => before.push(e) });
  if (paused.status !== 'paused') throw new Error('expected a pause');
  const after: CadreEvent[] = [];
  const done = await resume(
    root,
    JSON.parse(JSON.stringify(paused.state)) as RunState,
    { [paused.pending[0]?.callId ?? '']: { kind: 'approve' } },
    { ...options, inputs: {}, onEvent: (e) => after.push(e) },
  );
  if (done.status !== 'finished') throw new Error('expected the end');
  expect(done.result.terminate_reason).toBe('GOAL');
  return { before, after };
}

/** Events of the first part that the resumed part emits again. */
function repeated(before: CadreEvent[], after: CadreEvent[]): string[] {
  const seen = new Set(before.map(key));
  return after.filter((e) => seen.has(key(e))).map((e) => `${e.type}: ${e.message}`);
}

describe('a resumed router or workflow does not emit again what it emitted before the pause (scripted model)', () => {
  it('a router: the routing and its streamed text appear once', async () => {
    const router = def('assistant', [], {
      router: { domains: ['mailer', 'news'], domainTimeoutSecs: 30 },
    });
    const sent: Array<Record<string, unknown>> = [];
    const { before, after } = await pauseAndResume(router, {
      model: scripted(),
      tools: [sendTool(sent)],
      agents: catalog(def('mailer', ['send']), def('news', []), router),
      inputs: { prompt: 'mail ann and tell me the news' },
      confirm: () => Promise.resolve({ kind: 'pause' }),
    });
    expect(sent).toEqual([{ to: 'ann' }]);
    expect(before.filter((e) => e.type === 'routing_decided')).toHaveLength(1);
    expect(repeated(before, after)).toEqual([]);
    const all = [...before, ...after];
    expect(all.filter((e) => e.type === 'routing_decided')).toHaveLength(1);
    expect(all.filter((e) => e.type === 'run_started' && e.depth === 0)).toHaveLength(1);
    // What comes after the pause is still told.
    expect(after.map((e) => e.type)).toEqual(
      expect.arrayContaining(['run_resumed', 'domain_finished', 'synthesis_started']),
    );
    expect(after.filter((e) => e.type === 'final_result' && e.depth === 0)).toHaveLength(1);
  });

  it('a sequential workflow: the steps before the waiting one appear once', async () => {
    const workflow = def('pipeline', [], {
      workflow: {
        kind: 'sequential',
        agents: [def('news', []), def('mailer', ['send']), def('closer', [])],
      },
    });
    const sent: Array<Record<string, unknown>> = [];
    const { before, after } = await pauseAndResume(workflow, {
      model: scripted(),
      tools: [sendTool(sent)],
      inputs: { prompt: 'go' },
      confirm: () => Promise.resolve({ kind: 'pause' }),
    });
    expect(sent).toEqual([{ to: 'ann' }]);
    expect(repeated(before, after)).toEqual([]);
    const steps = [...before, ...after]
      .filter((e) => e.type === 'workflow_step')
      .map((e) => e.message);
    expect(steps).toEqual(['Running news', 'Running mailer', 'Running closer']);
    expect(after.map((e) => e.type)).toContain('run_resumed');
  });

  it('a workflow inside a workflow: both resume without telling their earlier steps again', async () => {
    const inner = def('inner', [], {
      workflow: { kind: 'sequential', agents: [def('news', []), def('mailer', ['send'])] },
    });
    const outer = def('outer', [], {
      workflow: { kind: 'sequential', agents: [def('helper', []), inner, def('closer', [])] },
    });
    const sent: Array<Record<string, unknown>> = [];
    const { before, after } = await pauseAndResume(outer, {
      model: scripted(),
      tools: [sendTool(sent)],
      inputs: { prompt: 'go' },
      confirm: () => Promise.resolve({ kind: 'pause' }),
    });
    expect(sent).toEqual([{ to: 'ann' }]);
    expect(repeated(before, after)).toEqual([]);
    const steps = [...before, ...after]
      .filter((e) => e.type === 'workflow_step')
      .map((e) => `${e.path.join('/')}: ${e.message}`);
    expect(steps).toEqual([
      'outer: Running helper',
      'outer: Running inner',
      'outer/inner: Running news',
      'outer/inner: Running mailer',
      'outer: Running closer',
    ]);
    expect(after.filter((e) => e.type === 'run_resumed').map((e) => e.path.join('/'))).toEqual(
      expect.arrayContaining(['outer', 'outer/inner', 'outer/inner/mailer']),
    );
  });
});
