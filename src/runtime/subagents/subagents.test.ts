import { describe, expect, it } from 'vitest';
import type { AgentEntry, AgentLookup } from '../../contracts/agent.js';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import { echoTool, sendTool } from '../../testing/test-tools.js';
import { run } from '../run-verbs.js';

const def = (
  name: string,
  tools: string[],
  extra: Partial<AgentDefinition> = {},
): AgentDefinition => ({
  name,
  description: `The ${name} agent`,
  promptConfig: { systemPrompt: `ROLE:${name}` },
  toolConfig: { tools },
  ...extra,
});

function catalog(...definitions: AgentDefinition[]): AgentLookup {
  const entries = new Map<string, AgentEntry>(
    definitions.map((d) => [d.name, { kind: 'definition', definition: d }]),
  );
  return { get: (name) => entries.get(name), names: () => [...entries.keys()] };
}

const roleOf = (request: ModelRequest): string =>
  /ROLE:(\S+)/.exec(request.systemInstruction ?? '')?.[1] ?? '?';
const called = (request: ModelRequest): boolean =>
  request.messages.at(-1)?.parts.some((p) => p.kind === 'function_response') ?? false;
const call = (name: string, args: Record<string, unknown>): ScriptedTurn => ({
  parts: [{ functionCall: { name, args } }],
});
const say = (text: string): ScriptedTurn => ({ parts: [{ text }] });
const lastResponse = (request: ModelRequest | undefined): unknown => {
  const part = request?.messages.at(-1)?.parts.find((p) => p.kind === 'function_response');
  return part?.kind === 'function_response' ? part.response : undefined;
};

describe('subagents (scripted model responses)', () => {
  describe('a definition named in toolConfig.tools becomes a tool', () => {
    const reader = def('reader', ['echo'], {
      inputConfig: {
        inputs: { file: { type: 'string', required: true, description: 'Which file' } },
      },
      promptConfig: { systemPrompt: 'ROLE:reader', query: 'Read ${file}' },
    });
    const router = def('router', ['reader']);

    it('offers the child with its inputs as parameters, runs it, and returns structured JSON', async () => {
      const events: CadreEvent[] = [];
      const model = new ScriptedModel((request) => {
        if (roleOf(request) === 'reader')
          return called(request) ? say('it says hi') : call('echo', { text: 'hi' });
        return called(request) ? say('The reader says hi.') : call('reader', { file: 'a.txt' });
      });
      const result = await run(router, {
        model,
        tools: [echoTool(), sendTool()],
        agents: catalog(reader, router),
        inputs: { prompt: 'what is in a.txt?' },
        onEvent: (e) => events.push(e),
      });
      expect(result.terminate_reason).toBe('GOAL');
      const declaration = model.requests[0]?.tools.find((t) => t.name === 'reader');
      expect(declaration?.parameters).toMatchObject({
        required: ['file'],
        properties: { file: { type: 'string' } },
      });
      const childRequest = model.requests.find((r) => roleOf(r) === 'reader');
      expect(childRequest?.messages[0]?.parts[0]).toMatchObject({ text: 'Read a.txt' });
      expect(childRequest?.tools.map((t) => t.name)).toEqual(['echo']);
      const report = (lastResponse(model.requests.at(-1)) as { output: Record<string, unknown> })
        .output;
      expect(report).toMatchObject({
        terminate_reason: 'GOAL',
        output: 'it says hi',
        final_message: 'it says hi',
      });
      expect(typeof report.agent_id).toBe('string');

      const childEvents = events.filter((e) => e.depth === 1);
      expect(childEvents.length).toBeGreaterThan(3);
      expect(
        childEvents.every(
          (e) => e.path.join('/') === 'router/reader' && e.executionId === report.agent_id,
        ),
      ).toBe(true);
      expect(childEvents.every((e) => e.parentExecutionId === result.execution_id)).toBe(true);
      expect(events.filter((e) => e.type === 'final_result')).toHaveLength(2);
      expect(events.map((e) => e.type)).toEqual(
        expect.arrayContaining(['subagent_started', 'subagent_finished']),
      );
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    });

    it('validates the arguments before the child runs', async () => {
      const model = new ScriptedModel((request) =>
        called(request) ? say('ok') : call('reader', { path: 'a.txt' }),
      );
      await run(router, {
        model,
        tools: [echoTool()],
        agents: catalog(reader, router),
        inputs: { prompt: 'x' },
      });
      expect(model.requests.some((r) => roleOf(r) === 'reader')).toBe(false);
      expect(lastResponse(model.requests[1])).toMatchObject({
        error: expect.stringMatching(/Invalid arguments for reader: file: is required/),
      });
    });
  });

  describe('depth cap', () => {
    it('stops a self-recursive agent at the cap with a clear error to the model', async () => {
      const recur = def('recur', ['recur']);
      const depths: number[] = [];
      const events: CadreEvent[] = [];
      const model = new ScriptedModel((request) =>
        called(request) ? say('done') : call('recur', { prompt: 'again' }),
      );
      const result = await run(recur, {
        model,
        agents: catalog(recur),
        inputs: { prompt: 'go' },
        onEvent: (e) => {
          events.push(e);
          if (e.type === 'run_started') depths.push(e.depth);
        },
      });
      expect(result.terminate_reason).toBe('GOAL');
      expect(depths).toEqual([0, 1, 2, 3]);
      const deepest = model.requests.find((r) =>
        JSON.stringify(lastResponse(r) ?? '').includes('depth limit'),
      );
      expect(JSON.stringify(lastResponse(deepest))).toContain(
        'Subagent depth limit (3) reached: recur → recur → recur → recur cannot start',
      );
    });

    it('honours a lower cap', async () => {
      const recur = def('recur', ['recur']);
      const depths: number[] = [];
      const model = new ScriptedModel((request) =>
        called(request) ? say('done') : call('recur', { prompt: 'again' }),
      );
      await run(recur, {
        model,
        agents: catalog(recur),
        limits: { maxDepth: 1 },
        inputs: { prompt: 'go' },
        onEvent: (e) => e.type === 'run_started' && depths.push(e.depth),
      });
      expect(depths).toEqual([0, 1]);
    });
  });

  describe('SECURITY: call-time tool choices only narrow', () => {
    it('an ephemeral child asking for a tool its parent lacks does not get it', async () => {
      const parent = def('parent', ['task', 'echo']);
      const sent: Array<Record<string, unknown>> = [];
      const model = new ScriptedModel((request) => {
        if (roleOf(request) === 'child')
          return called(request) ? say('child done') : call('send', { to: 'x' });
        return called(request)
          ? say('ok')
          : call('task', {
              agent: { type: 'prompt', system_prompt: 'ROLE:child', tools: ['send', 'echo'] },
              query: 'send it',
            });
      });
      await run(parent, {
        model,
        tools: [echoTool(), sendTool(sent)],
        inputs: { prompt: 'x' },
        confirm: () => Promise.resolve({ kind: 'approve' }),
      });
      const child = model.requests.filter((r) => roleOf(r) === 'child');
      expect(child[0]?.tools.map((t) => t.name)).toEqual(['echo']);
      expect(sent).toEqual([]);
      expect(lastResponse(child[1])).toMatchObject({
        error: expect.stringContaining("Unauthorized tool call: 'send'"),
      });
    });

    it('"all" for an ephemeral child means all of the parent\'s tools, no more', async () => {
      const parent = def('parent', ['task', 'echo']);
      const model = new ScriptedModel((request) =>
        roleOf(request) === 'child'
          ? say('hi')
          : called(request)
            ? say('ok')
            : call('task', {
                agent: { type: 'prompt', system_prompt: 'ROLE:child', tools: 'all' },
                query: 'q',
              }),
      );
      await run(parent, {
        model,
        tools: [echoTool(), sendTool()],
        inputs: { prompt: 'x' },
      });
      expect(model.requests.find((r) => roleOf(r) === 'child')?.tools.map((t) => t.name)).toEqual([
        'task',
        'echo',
      ]);
    });

    it("a named agent's own grant applies: a router holding only `task` can call a child that uses echo", async () => {
      const worker = def('worker', ['echo']);
      const router = def('router', ['task']);
      const model = new ScriptedModel((request) =>
        roleOf(request) === 'worker'
          ? called(request)
            ? say('w')
            : call('echo', { text: 'a' })
          : called(request)
            ? say('ok')
            : call('task', { agent: 'worker', query: 'q' }),
      );
      await run(router, {
        model,
        tools: [echoTool()],
        agents: catalog(worker, router),
        inputs: { prompt: 'x' },
      });
      expect(model.requests.find((r) => roleOf(r) === 'worker')?.tools.map((t) => t.name)).toEqual([
        'echo',
      ]);
    });

    it('task config.tools narrows a named child and cannot widen it', async () => {
      const worker = def('worker', ['echo', 'send']);
      const router = def('router', ['task', 'send']);
      const model = new ScriptedModel((request) =>
        roleOf(request) === 'worker'
          ? say('w')
          : called(request)
            ? say('ok')
            : call('task', { agent: 'worker', query: 'q', config: { tools: ['send', 'echo'] } }),
      );
      await run(router, {
        model,
        tools: [echoTool(), sendTool()],
        agents: catalog(worker, router),
        inputs: { prompt: 'x' },
      });
      // echo is the worker's own, but the router lacks it, so a call-time list cannot keep it.
      expect(model.requests.find((r) => roleOf(r) === 'worker')?.tools.map((t) => t.name)).toEqual([
        'send',
      ]);
    });

    it('allow_nested: false withholds subagent tools from the child', async () => {
      const worker = def('worker', ['echo', 'task']);
      const router = def('router', ['task']);
      const events: CadreEvent[] = [];
      const model = new ScriptedModel((request) =>
        roleOf(request) === 'worker'
          ? say('w')
          : called(request)
            ? say('ok')
            : call('task', { agent: 'worker', query: 'q', config: { allow_nested: false } }),
      );
      await run(router, {
        model,
        tools: [echoTool()],
        agents: catalog(worker, router),
        inputs: { prompt: 'x' },
        onEvent: (e) => events.push(e),
      });
      expect(model.requests.find((r) => roleOf(r) === 'worker')?.tools.map((t) => t.name)).toEqual([
        'echo',
      ]);
      expect(events.find((e) => e.type === 'warning' && e.depth === 1)?.message).toMatch(
        /withheld: task/,
      );
    });
  });

  describe('parallel children, budgets and cancellation', () => {
    it('runs children of one turn in parallel under the per-parent limit, each with its own events', async () => {
      const worker = def('worker', []);
      const router = def('router', ['worker']);
      let running = 0;
      let peak = 0;
      const model = new ScriptedModel((request): ScriptedTurn => {
        if (roleOf(request) === 'worker')
          return { ...say(`did ${JSON.stringify(request.messages[0]?.parts[0])}`), delayMs: 30 };
        if (called(request)) return say('all done');
        return {
          parts: [1, 2, 3].map((n) => ({
            functionCall: { name: 'worker', args: { prompt: `job ${n}` } },
          })),
        };
      });
      const inner = model.generate.bind(model);
      model.generate = async function* (request, signal) {
        const child = roleOf(request) === 'worker';
        if (child) peak = Math.max(peak, ++running);
        try {
          yield* inner(request, signal);
        } finally {
          if (child) running--;
        }
      };
      const events: CadreEvent[] = [];
      const result = await run(router, {
        model,
        agents: catalog(worker, router),
        limits: { perParentConcurrency: 2 },
        inputs: { prompt: 'x' },
        onEvent: (e) => events.push(e),
      });
      expect(result.final_message).toBe('all done');
      expect(peak).toBe(2);
      const childIds = new Set(events.filter((e) => e.depth === 1).map((e) => e.executionId));
      expect(childIds.size).toBe(3);
      const responses = model.requests.at(-1)?.messages.at(-1)?.parts ?? [];
      expect(
        responses.map((p) =>
          p.kind === 'function_response'
            ? (p.response as { output: { final_message: string } }).output.final_message
            : '',
        ),
      ).toEqual([
        expect.stringContaining('job 1'),
        expect.stringContaining('job 2'),
        expect.stringContaining('job 3'),
      ]);
    });

    it("gives a child no more than the parent's remaining time", async () => {
      const slow = def('slow', []);
      const router = def('router', ['slow'], { runConfig: { max_time_minutes: 0.005 } });
      const started = performance.now();
      const model = new ScriptedModel((request) => {
        if (roleOf(request) === 'slow')
          return request.messages.length > 1
            ? say('partial answer')
            : { ...say('late'), delayMs: 3000 };
        return called(request) ? say('ok') : call('slow', { prompt: 'take your time' });
      });
      await run(router, { model, agents: catalog(slow, router), inputs: { prompt: 'x' } });
      // The parent may itself be in its grace turn by then: look for the child's report anywhere in its history.
      const history = model.requests.filter((r) => roleOf(r) === 'router').at(-1)?.messages ?? [];
      const report = history.flatMap((m) => m.parts).find((p) => p.kind === 'function_response');
      expect(report?.kind === 'function_response' && report.response).toMatchObject({
        output: {
          terminate_reason: 'GOAL',
          recovered_from: 'TIMEOUT',
          final_message: 'partial answer',
        },
      });
      expect(performance.now() - started).toBeLessThan(2500);
    });

    it('cancelling the parent cancels the children', async () => {
      const slow = def('slow', []);
      const router = def('router', ['slow']);
      const controller = new AbortController();
      const results: string[] = [];
      const model = new ScriptedModel((request) => {
        if (roleOf(request) === 'slow') {
          setTimeout(() => controller.abort(), 20);
          return { ...say('never'), delayMs: 5000 };
        }
        return called(request) ? say('ok') : call('slow', { prompt: 'q' });
      });
      const started = performance.now();
      const result = await run(router, {
        model,
        agents: catalog(slow, router),
        inputs: { prompt: 'x' },
        signal: controller.signal,
        onEvent: (e) =>
          e.type === 'final_result' &&
          results.push(
            `${e.depth}:${(e.data.result as { terminate_reason: string }).terminate_reason}`,
          ),
      });
      expect(result.terminate_reason).toBe('ABORTED');
      expect(results).toEqual(['1:ABORTED', '0:ABORTED']);
      expect(performance.now() - started).toBeLessThan(2000);
    });
  });
});
