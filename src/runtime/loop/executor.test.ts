import type { SavePoint } from '../../contracts/run-journal.js';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors/validation-error.js';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { FunctionResponsePart, Message } from '../../model/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import { echoTool, sendTool } from '../../testing/test-tools.js';
import { defineTool } from '../../tools/types.js';
import { approveTools } from '../../contracts/confirmation.js';
import { type ExecutionOptions } from './executor.js';
import { run as runDefinition } from '../run-verbs.js';
import type { RunState } from '../../contracts/run-state.js';
import { memoryJournal } from './memory-journal.js';

const chat: AgentDefinition = {
  name: 'chat',
  description: 'A chat agent',
  promptConfig: { systemPrompt: 'Be brief.' },
  toolConfig: { tools: ['echo'] },
};

const reporter: AgentDefinition = {
  name: 'reporter',
  description: 'Reports on a topic',
  inputConfig: {
    inputs: { topic: { type: 'string', required: true, description: 'What to report on' } },
  },
  outputConfig: {
    outputName: 'report',
    description: 'The report',
    schema: {
      kind: 'json_schema',
      schema: {
        type: 'object',
        properties: { summary: { type: 'string' }, score: { type: 'integer' } },
        required: ['summary', 'score'],
      },
    },
  },
  promptConfig: { systemPrompt: 'You report on ${topic}.', query: 'Report on ${topic}.' },
  toolConfig: { tools: ['echo'] },
  runConfig: { max_turns: 5 },
};

const text = (t: string): ScriptedTurn => ({ parts: [{ text: t }] });
const call = (name: string, args: Record<string, unknown>, say?: string): ScriptedTurn => ({
  parts: [...(say ? [{ text: say }] : []), { functionCall: { name, args } }],
});

async function run(
  definition: AgentDefinition,
  script: ScriptedTurn[],
  options: ExecutionOptions = {},
) {
  const model = new ScriptedModel(script);
  const events: CadreEvent[] = [];
  const echoed: Array<Record<string, unknown>> = [];
  const result = await runDefinition(definition, {
    model,
    tools: [echoTool(echoed), sendTool()],
    onEvent: (e) => events.push(e),
    ...options,
  });
  return { result, model, events, echoed };
}

function responsesIn(message: Message | undefined): FunctionResponsePart['response'][] {
  return (message?.parts ?? []).flatMap((p) =>
    p.kind === 'function_response' ? [p.response] : [],
  );
}

describe('executor (scripted model responses)', () => {
  describe('chat agents: a plain answer ends the run', () => {
    it('returns the answer as final_message and content with GOAL', async () => {
      const { result, model } = await run(chat, [text('Hello there.')], {
        inputs: { prompt: 'Hi' },
      });
      expect(result.terminate_reason).toBe('GOAL');
      expect(result.final_message).toBe('Hello there.');
      expect(result.content).toBe('Hello there.');
      expect(result.output).toBe('Hello there.');
      expect(result.turns).toBe(1);
      expect(model.requests[0]?.messages[0]?.parts[0]).toEqual({ kind: 'text', text: 'Hi' });
      expect(model.requests[0]?.systemInstruction).toContain('Be brief.');
    });

    it('emits exactly one final_result, last, with increasing seq', async () => {
      const { events } = await run(chat, [call('echo', { text: 'a' }), text('done')], {
        inputs: { prompt: 'Hi' },
      });
      expect(events.filter((e) => e.type === 'final_result')).toHaveLength(1);
      expect(events.at(-1)?.type).toBe('final_result');
      expect(events[0]?.type).toBe('run_started');
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events.map((e) => e.type)).toContain('tool_result');
    });

    it('keeps model text that sits next to tool calls in the history', async () => {
      const { model } = await run(
        chat,
        [call('echo', { text: 'a' }, 'Let me check.'), text('ok')],
        {
          inputs: { prompt: 'Hi' },
        },
      );
      const history = model.requests[1]?.messages ?? [];
      expect(history[1]?.parts[0]).toEqual({ kind: 'text', text: 'Let me check.' });
      expect(history[1]?.parts[1]?.kind).toBe('function_call');
    });
  });

  describe('inputs and templates are checked before any model call', () => {
    it('a missing required input is a ValidationError and the model is never called', async () => {
      const model = new ScriptedModel([]);
      await expect(runDefinition(reporter, { model, inputs: {} })).rejects.toThrow(ValidationError);
      await expect(runDefinition(reporter, { model, inputs: {} })).rejects.toThrow(/topic/);
      expect(model.requests).toHaveLength(0);
    });

    it('a wrongly typed input is rejected', async () => {
      const model = new ScriptedModel([]);
      await expect(runDefinition(reporter, { model, inputs: { topic: 42 } })).rejects.toThrow(
        /inputs\.topic/,
      );
    });

    it('a placeholder with no input lists missing and available keys', async () => {
      const broken: AgentDefinition = {
        ...reporter,
        promptConfig: { query: 'About ${topic} and ${audience}' },
      };
      const model = new ScriptedModel([]);
      await expect(runDefinition(broken, { model, inputs: { topic: 'x' } })).rejects.toThrow(
        /missing value for \$\{audience\}; available: topic/,
      );
      expect(model.requests).toHaveLength(0);
    });

    it('fills ${name} into the system prompt and the query', async () => {
      const { model } = await run(
        reporter,
        [call('complete_task', { report: { summary: 's', score: 1 } })],
        {
          inputs: { topic: 'tides' },
        },
      );
      expect(model.requests[0]?.systemInstruction).toContain('You report on tides.');
      expect(model.requests[0]?.messages[0]?.parts[0]).toMatchObject({ text: 'Report on tides.' });
    });
  });

  describe('complete_task: structured output', () => {
    it('accepts a valid output and ends with GOAL', async () => {
      const { result } = await run(
        reporter,
        [call('complete_task', { report: { summary: 'calm', score: 3 } })],
        {
          inputs: { topic: 'sea' },
        },
      );
      expect(result.terminate_reason).toBe('GOAL');
      expect(result.output).toEqual({ summary: 'calm', score: 3 });
      expect(JSON.parse(result.final_message)).toEqual({ summary: 'calm', score: 3 });
    });

    it('sends schema errors back so the model can correct itself', async () => {
      const { result, model } = await run(
        reporter,
        [
          call('complete_task', { report: { summary: 'calm', score: 'high' } }),
          call('complete_task', { report: { summary: 'calm', score: 9 } }),
        ],
        { inputs: { topic: 'sea' } },
      );
      const firstAnswer = responsesIn(model.requests[1]?.messages.at(-1))[0];
      expect(firstAnswer).toMatchObject({
        error: expect.stringMatching(/Output validation failed: score: must be integer/),
      });
      expect(result.terminate_reason).toBe('GOAL');
      expect(result.output).toEqual({ summary: 'calm', score: 9 });
      expect(result.turns).toBe(2);
    });

    it('formats the output with processOutput', async () => {
      const def: AgentDefinition<{ summary: string }> = {
        ...(reporter as AgentDefinition<{ summary: string }>),
        processOutput: (o) => `Summary: ${o.summary}`,
      };
      const { result } = await run(
        def as AgentDefinition,
        [call('complete_task', { report: { summary: 'ok', score: 1 } })],
        {
          inputs: { topic: 'x' },
        },
      );
      expect(result.final_message).toBe('Summary: ok');
      expect(result.content).toBe('Summary: ok');
    });

    it('offers complete_task with the output schema as its parameter', async () => {
      const { model } = await run(
        reporter,
        [call('complete_task', { report: { summary: 's', score: 1 } })],
        {
          inputs: { topic: 'x' },
        },
      );
      const declaration = model.requests[0]?.tools.find((t) => t.name === 'complete_task');
      expect(declaration?.parameters).toMatchObject({
        required: ['report'],
        properties: { report: { type: 'object', required: ['summary', 'score'] } },
      });
    });
  });

  describe('emit_value: named outputs', () => {
    const emitter: AgentDefinition = {
      name: 'emitter',
      description: 'Emits',
      outputConfig: { outputs: { city: 'The city', country: 'The country' } },
      promptConfig: { systemPrompt: 'Find the place.' },
      toolConfig: { tools: [] },
    };

    it('ends with GOAL once every output is emitted and the model stops calling tools', async () => {
      const { result } = await run(
        emitter,
        [
          {
            parts: [
              { functionCall: { name: 'emit_value', args: { name: 'city', value: 'Lyon' } } },
              { functionCall: { name: 'emit_value', args: { name: 'country', value: 'France' } } },
            ],
          },
          text('Found it.'),
        ],
        { inputs: { prompt: 'Where?' } },
      );
      expect(result.terminate_reason).toBe('GOAL');
      expect(result.emitted_vars).toEqual({ city: 'Lyon', country: 'France' });
      expect(result.final_message).toBe('Found it.');
    });

    it('nudges once when the model stops with outputs missing', async () => {
      const { result, model } = await run(
        emitter,
        [
          text('Lyon, I think.'),
          call('emit_value', { name: 'city', value: 'Lyon' }),
          call('emit_value', { name: 'country', value: 'France' }),
          text('Done.'),
        ],
        { inputs: { prompt: 'Where?' } },
      );
      expect(model.requests[1]?.messages.at(-1)?.parts[0]).toMatchObject({
        text: expect.stringContaining('have not emitted: city, country'),
      });
      expect(result.terminate_reason).toBe('GOAL');
      expect(result.recovered_from).toBeUndefined();
    });
  });

  describe('SECURITY: tool isolation', () => {
    it('answers a call to a tool that was not granted with an error and never runs it', async () => {
      const sent: Array<Record<string, unknown>> = [];
      const model = new ScriptedModel([call('send', { to: 'x@example.com' }), text('ok')]);
      const result = await runDefinition(chat, {
        model,
        tools: [echoTool(), sendTool(sent)],
        inputs: { prompt: 'go' },
        confirm: approveTools('all'),
      });
      expect(sent).toHaveLength(0);
      expect(responsesIn(model.requests[1]?.messages.at(-1))[0]).toMatchObject({
        error: expect.stringContaining(
          "Unauthorized tool call: 'send' is not available to this agent",
        ),
      });
      expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(['echo']);
      expect(result.traces).toHaveLength(0);
    });

    it('answers invalid arguments with the validation error and does not run the tool', async () => {
      const { model, echoed } = await run(chat, [call('echo', { txt: 'a' }), text('ok')], {
        inputs: { prompt: 'go' },
      });
      expect(echoed).toHaveLength(0);
      expect(responsesIn(model.requests[1]?.messages.at(-1))[0]).toMatchObject({
        error: expect.stringMatching(/Invalid arguments for echo: .*text/),
      });
    });

    it('refuses an unknown granted tool at start', async () => {
      const def: AgentDefinition = { ...chat, toolConfig: { tools: ['nope'] } };
      await expect(
        runDefinition(def, {
          model: new ScriptedModel([]),
          tools: [echoTool()],
          inputs: { prompt: 'x' },
        }),
      ).rejects.toThrow(/Unknown tool: nope/);
    });
  });

  describe('tool calls in one turn', () => {
    it('runs read-only calls in parallel', async () => {
      let started = 0;
      let release: () => void = () => {};
      const bothStarted = new Promise<void>((r) => (release = r));
      const slow = defineTool<{ n: number }>({
        name: 'slow',
        description: 'waits for its sibling',
        inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
        sideEffect: false,
        execute: async (args) => {
          if (++started === 2) release();
          // Deadlocks (and the test times out) if calls ran one after another.
          await bothStarted;
          return args.n;
        },
      });
      const def: AgentDefinition = { ...chat, toolConfig: { tools: ['slow'] } };
      const model = new ScriptedModel([
        {
          parts: [
            { functionCall: { name: 'slow', args: { n: 1 } } },
            { functionCall: { name: 'slow', args: { n: 2 } } },
          ],
        },
        text('done'),
      ]);
      const result = await runDefinition(def, { model, tools: [slow], inputs: { prompt: 'go' } });
      expect(result.traces.map((t) => t.output)).toEqual(['1', '2']);
      expect(responsesIn(model.requests[1]?.messages.at(-1))).toEqual([
        { output: 1 },
        { output: 2 },
      ]);
    });

    it('records a trace per executed call in the agent-format shape (output as text)', async () => {
      const { result } = await run(
        chat,
        [call('echo', { text: 'hi' }), call('echo', { txt: 1 }), text('ok')],
        {
          inputs: { prompt: 'go' },
        },
      );
      expect(result.traces).toEqual([
        {
          tool: 'echo',
          args: { text: 'hi' },
          output: '{"echoed":"hi"}',
          duration_secs: expect.any(Number),
        },
      ]);
      expect(result.traces[0]?.duration_secs).toBeGreaterThanOrEqual(0);
    });
  });

  describe('side effects need a decision', () => {
    const sender: AgentDefinition = { ...chat, toolConfig: { tools: ['send'] } };

    it('are refused by default (fail closed) and the model is told', async () => {
      const sent: Array<Record<string, unknown>> = [];
      const model = new ScriptedModel([call('send', { to: 'a' }), text('could not send')]);
      const result = await runDefinition(sender, {
        model,
        tools: [sendTool(sent)],
        inputs: { prompt: 'go' },
      });
      expect(sent).toHaveLength(0);
      expect(responsesIn(model.requests[1]?.messages.at(-1))[0]).toMatchObject({
        error: expect.stringContaining('rejected'),
      });
      expect(result.terminate_reason).toBe('GOAL');
    });

    it('run once when approved', async () => {
      const sent: Array<Record<string, unknown>> = [];
      const model = new ScriptedModel([call('send', { to: 'a' }), text('sent')]);
      await runDefinition(sender, {
        model,
        tools: [sendTool(sent)],
        inputs: { prompt: 'go' },
        confirm: approveTools(['send']),
      });
      expect(sent).toEqual([{ to: 'a' }]);
    });

    it('"always" approves later calls of the same tool without asking again', async () => {
      const sent: Array<Record<string, unknown>> = [];
      let asked = 0;
      const model = new ScriptedModel([
        call('send', { to: 'a' }),
        call('send', { to: 'b' }),
        text('sent'),
      ]);
      await runDefinition(sender, {
        model,
        tools: [sendTool(sent)],
        inputs: { prompt: 'go' },
        confirm: () => {
          asked++;
          return Promise.resolve({ kind: 'approve_always' });
        },
      });
      expect(sent).toHaveLength(2);
      expect(asked).toBe(1);
    });

    it('a rejection carries the feedback to the model; onReject: fail ends the run', async () => {
      const model = new ScriptedModel([call('send', { to: 'a' }), text('ok')]);
      const result = await runDefinition(
        { ...sender, onReject: 'fail' },
        {
          model,
          tools: [sendTool()],
          inputs: { prompt: 'go' },
          confirm: () => Promise.resolve({ kind: 'reject', feedback: 'not to a' }),
        },
      );
      expect(result.terminate_reason).toBe('ERROR');
      expect(result.error?.message).toContain('not to a');
      expect(model.requests).toHaveLength(1);
    });
  });

  describe('limits and the grace turn', () => {
    const loopForever = (_request: unknown, i: number): ScriptedTurn =>
      call('echo', { text: String(i) });

    it('at max_turns offers only complete_task for one grace turn; success reports recovered_from', async () => {
      const model = new ScriptedModel((request, i) =>
        request.tools.length === 1
          ? call('complete_task', { report: { summary: 'partial', score: 0 } })
          : loopForever(request, i),
      );
      const result = await runDefinition(
        { ...reporter, runConfig: { max_turns: 2 } },
        { model, tools: [echoTool()], inputs: { topic: 'x' } },
      );
      expect(model.requests).toHaveLength(3);
      expect(model.requests[2]?.tools.map((t) => t.name)).toEqual(['complete_task']);
      expect(model.requests[2]?.messages.at(-1)?.parts[0]).toMatchObject({
        text: expect.stringContaining('turn limit (2)'),
      });
      expect(result.terminate_reason).toBe('GOAL');
      expect(result.recovered_from).toBe('MAX_TURNS');
      expect(result.turns).toBe(3);
    });

    it('reports MAX_TURNS when the grace turn does not complete', async () => {
      const model = new ScriptedModel((_r, i) =>
        i < 2 ? call('echo', { text: 'x' }) : text('I give up'),
      );
      const result = await runDefinition(
        { ...reporter, runConfig: { max_turns: 2 } },
        { model, tools: [echoTool()], inputs: { topic: 'x' } },
      );
      expect(result.terminate_reason).toBe('MAX_TURNS');
      expect(result.recovered_from).toBeUndefined();
      expect(result.final_message).toBe('Agent reached the max turns limit (2).');
    });

    it('stopping without complete_task gets a grace turn too', async () => {
      const { result } = await run(
        reporter,
        [text('Here is my report'), call('complete_task', { report: { summary: 's', score: 1 } })],
        {
          inputs: { topic: 'x' },
        },
      );
      expect(result.terminate_reason).toBe('GOAL');
      expect(result.recovered_from).toBe('NO_COMPLETION');
    });

    it('times out on max_time_minutes, then recovers in the grace turn', async () => {
      const model = new ScriptedModel((request) =>
        request.tools.length === 1
          ? call('complete_task', { report: { summary: 'late', score: 0 } })
          : { ...call('echo', { text: 'x' }), delayMs: 40 },
      );
      const result = await runDefinition(
        { ...reporter, runConfig: { max_turns: 100, max_time_minutes: 0.002 } },
        { model, tools: [echoTool()], inputs: { topic: 'x' } },
      );
      expect(result.terminate_reason).toBe('GOAL');
      expect(result.recovered_from).toBe('TIMEOUT');
    });

    it('reports TIMEOUT when the grace turn fails', async () => {
      const slow = new ScriptedModel((request) =>
        request.tools.length <= 1 ? text('no') : { ...call('echo', { text: 'x' }), delayMs: 40 },
      );
      const result = await runDefinition(
        { ...reporter, runConfig: { max_time_minutes: 0.002 } },
        { model: slow, tools: [echoTool()], inputs: { topic: 'x' } },
      );
      expect(result.terminate_reason).toBe('TIMEOUT');
      expect(result.final_message).toMatch(/timed out after 0.002 minutes/);
    });
  });

  describe('cancellation', () => {
    it('an aborted signal ends the run ABORTED with one final_result', async () => {
      const controller = new AbortController();
      const events: CadreEvent[] = [];
      const model = new ScriptedModel((_r, i) => {
        if (i === 1) controller.abort();
        return { ...call('echo', { text: 'x' }), delayMs: 5 };
      });
      const result = await runDefinition(chat, {
        model,
        tools: [echoTool()],
        inputs: { prompt: 'go' },
        signal: controller.signal,
        onEvent: (e) => events.push(e),
      });
      expect(result.terminate_reason).toBe('ABORTED');
      expect(events.filter((e) => e.type === 'final_result')).toHaveLength(1);
    });
  });

  describe('failures', () => {
    it('a model failure ends the run with ERROR and a message', async () => {
      const { result, events } = await run(chat, [], { inputs: { prompt: 'go' } });
      expect(result.terminate_reason).toBe('ERROR');
      expect(result.error?.message).toMatch(/no turn 1/);
      expect(events.some((e) => e.type === 'error')).toBe(true);
    });
  });

  describe('run state', () => {
    it('is plain data that survives a JSON round trip after every turn', async () => {
      const states: RunState[] = [];
      await run(chat, [call('echo', { text: 'a' }, 'thinking aloud'), text('done')], {
        inputs: { prompt: 'go' },
        journal: Object.assign(memoryJournal(), {
          save: (s: Readonly<RunState>, point: SavePoint) => {
            if (point === 'turn_end') states.push(structuredClone(s) as RunState);
            return Promise.resolve();
          },
        }),
      });
      expect(states).toHaveLength(2);
      for (const state of states) expect(JSON.parse(JSON.stringify(state))).toEqual(state);
      expect(states[1]?.messages).toHaveLength(4);
    });
  });
});
