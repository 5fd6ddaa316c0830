import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../errors/cadre-error.js';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type Script, type ScriptedTurn } from '../../model/scripted-model.js';
import { run } from '../../runtime/run-verbs.js';
import { echoTool, sendTool } from '../../testing/test-tools.js';
import { lsTool, readFileTool } from '../../tools/builtin/index.js';
import type { Tool } from '../../tools/types.js';
import { ReactAgent, type ReactConfig } from './react.js';
import { FORMAT_REMINDER } from './react-protocol.js';
import { lastUserText, say } from './testing/test-support.js';

const act = (tool: string, input: string, thought = `I should use ${tool}.`): ScriptedTurn =>
  say(`Thought: ${thought}\nAction: ${tool}\nAction Input: ${input}`, 7);
const answer = (text: string): ScriptedTurn =>
  say(`Thought: I know it now.\nFinal Answer: ${text}`, 7);

async function react(turns: Script, config: Partial<ReactConfig>, signal?: AbortSignal) {
  const model = new ScriptedModel(turns);
  const events: CadreEvent[] = [];
  const result = await run(new ReactAgent(config), {
    inputs: { prompt: 'What do the notes say?' },
    model,
    onEvent: (e) => events.push(e),
    ...(signal ? { signal } : {}),
  });
  const observations = events
    .filter((e) => e.type === 'react_observation')
    .map((e) => String(e.data.observation));
  return { model, result, events, observations };
}

describe('react (scripted model responses)', () => {
  let workspace: string;
  beforeAll(async () => {
    workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cadre-react-')));
    await writeFile(path.join(workspace, 'notes.txt'), 'Meet at noon.\n');
  });
  afterAll(() => rm(workspace, { recursive: true, force: true }));

  it('uses two tools in turn, feeding each Observation back, then gives the final answer', async () => {
    const { model, result, events } = await react(
      [
        act('ls', '{}'),
        act('read_file', '```json\n{"path": "notes.txt"}\n```'),
        answer('The notes say: meet at noon.'),
      ],
      { tools: [lsTool, readFileTool], workspace },
    );
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.content).toBe('The notes say: meet at noon.');
    expect(result.turns).toBe(3);
    expect(result.usage.totalTokens).toBe(21);
    expect(result.traces.map((t) => [t.tool, t.args])).toEqual([
      ['ls', {}],
      ['read_file', { path: 'notes.txt' }],
    ]);
    expect(result.traces[1]?.output).toContain('Meet at noon.');
    expect(result.traces.every((t) => typeof t.duration_secs === 'number')).toBe(true);
    expect(lastUserText(model.requests[1]!)).toMatch(/^Observation: .*notes\.txt/s);
    expect(lastUserText(model.requests[2]!)).toMatch(/^Observation: .*Meet at noon\./s);
    expect(model.requests[0]?.tools).toEqual([]);
    expect(model.requests[0]?.systemInstruction).toContain('- read_file:');
    const own = events
      .filter((e) => e.depth === 0 && e.type.startsWith('react_'))
      .map((e) => e.type);
    expect(own).toEqual([
      'react_started',
      'react_thought',
      'react_action',
      'react_observation',
      'react_thought',
      'react_action',
      'react_observation',
      'react_thought',
      'react_complete',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'final_result', depth: 0 });
  });

  it('stops at maxIterations with react_max_iterations and an incomplete final result', async () => {
    const { model, result, events } = await react(
      [act('echo', '{"text": "a"}'), act('echo', '{"text": "b"}')],
      {
        tools: [echoTool()],
        maxIterations: 2,
      },
    );
    expect(model.requests).toHaveLength(2);
    expect(events.filter((e) => e.type === 'react_max_iterations')).toHaveLength(1);
    expect(events.some((e) => e.type === 'react_complete')).toBe(false);
    expect(result.content).toMatch(/stopped after 2 iterations/);
    expect(result.output).toEqual({ incomplete: true, reason: 'max_iterations', iterations: 2 });
    expect(result.traces).toHaveLength(2);
  });

  it('answers an unknown tool with an Observation naming the available tools', async () => {
    const { result, observations } = await react([act('search', '{"q": "x"}'), answer('ok')], {
      tools: [echoTool(), sendTool()],
    });
    expect(observations).toEqual(["Unknown tool 'search'. Available tools: echo."]);
    expect(result.traces).toEqual([]);
    expect(result.content).toBe('ok');
  });

  it('answers bad JSON, invalid arguments and a malformed reply with Observations the model can act on', async () => {
    const calls: Array<Record<string, unknown>> = [];
    const { observations } = await react(
      [
        act('echo', '{text: a}'),
        act('echo', '{"txt": "a"}'),
        say('I am not sure.'),
        act('echo', '{"text": "a"}'),
        answer('done'),
      ],
      { tools: [echoTool(calls)] },
    );
    expect(observations[0]).toMatch(/^Action Input is not valid JSON/);
    expect(observations[1]).toMatch(/^Invalid arguments for echo: .*text: is required/);
    expect(observations[2]).toBe(FORMAT_REMINDER);
    expect(observations[3]).toBe('{"echoed":"a"}');
    expect(calls).toEqual([{ text: 'a' }]);
  });

  it('refuses a side-effecting tool (no approval path) and never offers it', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const { model, observations, result } = await react(
      [act('send', '{"to": "bob"}'), answer('could not send')],
      {
        tools: [echoTool(), sendTool(sent)],
      },
    );
    expect(sent).toEqual([]);
    expect(observations[0]).toMatch(/^Refused: send changes files or other state/);
    expect(model.requests[0]?.systemInstruction).not.toContain('- send:');
    expect(result.traces).toEqual([]);
  });

  it('ends ABORTED when cancelled while the model is thinking', async () => {
    const controller = new AbortController();
    // Cancelled as soon as the model is asked, not after a timer: it is thinking then.
    const slow = (): ScriptedTurn => {
      queueMicrotask(() => controller.abort());
      return { ...answer('late'), delayMs: 10_000 };
    };
    const { result, events } = await react(slow, { tools: [] }, controller.signal);
    expect(result.terminate_reason).toBe('ABORTED');
    expect(events.filter((e) => e.type === 'final_result')).toHaveLength(1);
  });

  it('rejects a bad configuration at construction', () => {
    const twice: Tool[] = [echoTool(), echoTool()];
    expect(() => new ReactAgent({ maxIterations: 0, tools: twice })).toThrow(ConfigError);
    expect(() => new ReactAgent({ maxIterations: 0, tools: twice })).toThrow(
      /maxIterations must be an integer of at least 1; tools named twice: echo/,
    );
  });
});
