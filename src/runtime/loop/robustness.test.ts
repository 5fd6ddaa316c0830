import type { SavePoint } from '../../contracts/run-journal.js';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import { echoTool, sendTool } from '../../testing/test-tools.js';
import { defineTool } from '../../tools/types.js';
import { run, start } from '../run-verbs.js';
import { SchemaValidator } from '../completion/schema-validator.js';
import { drive, NEW_RUN, resultOf, type ExecutionOptions } from './executor.js';
import { memoryJournal } from './memory-journal.js';
import { roleAgent as def, agentCatalog as catalog } from '../../testing/agent-catalog.js';

/** A run with the options only the run service sets (state hooks, a short grace turn). */
const runToEnd = async (definition: AgentDefinition, options: ExecutionOptions) =>
  resultOf(await drive(definition, NEW_RUN, options));

const role = (r: ModelRequest): string => /ROLE:(\S+)/.exec(r.systemInstruction ?? '')?.[1] ?? '?';
const answered = (r: ModelRequest): boolean =>
  (r.messages.at(-1)?.parts ?? []).some((p) => p.kind === 'function_response');

describe('robustness (scripted model responses)', () => {
  it('nested fan-out under a tight global limit finishes instead of deadlocking', async () => {
    const leaf = def('leaf', []);
    const mid = def('mid', ['leaf']);
    const root = def('root', ['mid']);
    const model = new ScriptedModel((r): ScriptedTurn => {
      if (role(r) === 'leaf') return { parts: [{ text: 'leaf done' }] };
      if (answered(r)) return { parts: [{ text: `${role(r)} done` }] };
      if (role(r) === 'mid')
        return { parts: [{ functionCall: { name: 'leaf', args: { prompt: 'x' } } }] };
      return {
        parts: Array.from({ length: 8 }, () => ({
          functionCall: { name: 'mid', args: { prompt: 'x' } },
        })),
      };
    });
    const result = await run(root, {
      model,
      agents: catalog(leaf, mid, root),
      limits: { globalConcurrency: 2, perParentConcurrency: 8 },
      inputs: { prompt: 'go' },
    });
    expect(result.final_message).toBe('root done');
  });

  it('cancelling mid-turn keeps the answers that came back and starts no further side effect', async () => {
    const controller = new AbortController();
    const sent: Array<Record<string, unknown>> = [];
    const slow = defineTool<Record<string, never>>({
      name: 'slow',
      description: 'slow read',
      inputSchema: { type: 'object' },
      sideEffect: false,
      execute: (_args, ctx) =>
        new Promise((resolve, reject) => {
          setTimeout(() => controller.abort(), 10);
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), {
            once: true,
          });
          void resolve;
        }),
    });
    const model = new ScriptedModel([
      {
        parts: [
          { functionCall: { name: 'echo', args: { text: 'kept' } } },
          { functionCall: { name: 'slow', args: {} } },
          { functionCall: { name: 'send', args: { to: 'x' } } },
        ],
      },
    ]);
    const states: unknown[] = [];
    const result = await runToEnd(def('a', ['echo', 'slow', 'send']), {
      model,
      tools: [echoTool(), slow, sendTool(sent)],
      inputs: { prompt: 'go' },
      signal: controller.signal,
      confirm: () => Promise.resolve({ kind: 'approve' }),
      journal: Object.assign(memoryJournal(), {
        save: (s: unknown, point: SavePoint) => {
          if (point === 'turn_end') states.push(structuredClone(s));
          return Promise.resolve();
        },
      }),
    });
    expect(result.terminate_reason).toBe('ABORTED');
    expect(sent).toEqual([]);
    const last = (
      states.at(-1) as { messages: Array<{ parts: Array<{ response?: unknown }> }> }
    ).messages.at(-1);
    expect(last?.parts.map((p) => p.response)).toEqual([
      { output: { echoed: 'kept' } },
      { error: 'Interrupted before it finished.' },
      { error: 'Interrupted before it finished.' },
    ]);
  });

  it('a grace turn that runs out of its own time reports the original limit, not a cancellation', async () => {
    const model = new ScriptedModel((r): ScriptedTurn =>
      r.tools.length === 0
        ? { parts: [{ text: 'late' }], delayMs: 500 }
        : { parts: [{ functionCall: { name: 'echo', args: { text: 'x' } } }] },
    );
    const result = await runToEnd(def('a', ['echo'], { runConfig: { max_turns: 1 } }), {
      model,
      tools: [echoTool()],
      inputs: { prompt: 'go' },
      graceMs: 30,
    });
    expect(result.terminate_reason).toBe('MAX_TURNS');
  });

  it('a subagent whose side effect waits for a person pauses the whole run, naming the path', async () => {
    const child = def('child', ['send']);
    const parent = def('parent', ['child']);
    const sent: Array<Record<string, unknown>> = [];
    const model = new ScriptedModel((r): ScriptedTurn => {
      if (role(r) === 'child')
        return answered(r)
          ? { parts: [{ text: 'child done' }] }
          : { parts: [{ functionCall: { name: 'send', args: { to: 'x' } } }] };
      return answered(r)
        ? { parts: [{ text: 'parent done' }] }
        : { parts: [{ functionCall: { name: 'child', args: { prompt: 'send' } } }] };
    });
    const outcome = await start(parent, {
      model,
      tools: [sendTool(sent)],
      agents: catalog(child, parent),
      inputs: { prompt: 'go' },
      confirm: () => Promise.resolve({ kind: 'pause' }),
    });
    expect(sent).toEqual([]);
    expect(outcome.status).toBe('paused');
    if (outcome.status === 'paused')
      expect(outcome.pending.map((p) => p.path)).toEqual([['parent', 'child', 'send']]);
  });

  it('compiles equal schemas once and accepts a schema with $id twice', async () => {
    const validator = await SchemaValidator.create();
    const a = validator.forJsonSchema({
      $id: 'urn:x',
      type: 'object',
      properties: { n: { type: 'number' } },
    });
    const b = validator.forJsonSchema({
      $id: 'urn:x',
      type: 'object',
      properties: { n: { type: 'number' } },
    });
    expect(a).toBe(b);
    expect(b({ n: 'one' })).toMatchObject({ ok: false });
  });
});
