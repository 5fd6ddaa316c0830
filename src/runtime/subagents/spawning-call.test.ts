import { describe, expect, it } from 'vitest';
import type { AgentEntry, AgentLookup } from '../../contracts/agent.js';
import type { AgentDefinition } from '../../definition/types.js';
import { buildExecutionTree } from '../../events/execution-tree.js';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { echoTool } from '../../testing/test-tools.js';
import { run as runAgent } from '../run-verbs.js';

const def = (name: string, extra: Partial<AgentDefinition> = {}): AgentDefinition => ({
  name,
  description: `The ${name} agent`,
  promptConfig: { systemPrompt: `ROLE:${name}` },
  toolConfig: { tools: [] },
  ...extra,
});

function catalog(...definitions: AgentDefinition[]): AgentLookup {
  const entries = new Map<string, AgentEntry>(
    definitions.map((d) => [d.name, { kind: 'definition', definition: d }]),
  );
  return { get: (name) => entries.get(name), names: () => [...entries.keys()] };
}

const roleOf = (request: ModelRequest): string =>
  request.tools.some((t) => t.name === 'route')
    ? 'router'
    : (/ROLE:(\S+)/.exec(request.systemInstruction ?? '')?.[1] ?? 'synth');
const answered = (request: ModelRequest): boolean =>
  request.messages.at(-1)?.parts.some((p) => p.kind === 'function_response') ?? false;
const calls = (...list: [id: string, name: string, args: Record<string, unknown>][]) =>
  ({
    parts: list.map(([id, name, args]) => ({ functionCall: { id, name, args } })),
  }) satisfies ScriptedTurn;
const say = (text: string): ScriptedTurn => ({ parts: [{ text }] });

/** Each root-level subagent_started, as [agent, callId]. */
function starts(events: readonly CadreEvent[]): [unknown, unknown][] {
  return events
    .filter((e) => e.type === 'subagent_started' && e.depth === 0)
    .map((e) => [e.data.agent, e.data.callId]);
}

async function run(
  root: AgentDefinition,
  script: (request: ModelRequest) => ScriptedTurn,
  ...others: AgentDefinition[]
): Promise<CadreEvent[]> {
  const events: CadreEvent[] = [];
  const result = await runAgent(root, {
    model: new ScriptedModel(script),
    tools: [echoTool()],
    agents: catalog(root, ...others),
    inputs: { prompt: 'go' },
    onEvent: (e) => events.push(e),
  });
  expect(result.terminate_reason).toBe('GOAL');
  return events;
}

describe('subagent_started names the call that started the child (scripted model responses)', () => {
  const reader = def('reader');

  it('an agent tool: two children of one turn, each under its own call', async () => {
    const events = await run(
      def('boss', { toolConfig: { tools: ['reader'] } }),
      (request) => {
        if (roleOf(request) === 'reader') return say('read');
        return answered(request)
          ? say('done')
          : calls(['call-a', 'reader', { prompt: 'a' }], ['call-b', 'reader', { prompt: 'b' }]);
      },
      reader,
    );
    expect(starts(events).sort()).toEqual([
      ['reader', 'call-a'],
      ['reader', 'call-b'],
    ]);
    // The reducer places each child under the call its event names.
    const tree = buildExecutionTree(events);
    const children = Object.values(tree.nodes).filter((node) => node.depth === 1);
    expect(children.map((node) => node.spawnedBy).sort()).toEqual(['call-a', 'call-b']);
    expect(children.every((node) => node.status === 'finished')).toBe(true);
  });

  it('task: the child of a delegation carries the task call id', async () => {
    const events = await run(
      def('boss', { toolConfig: { tools: ['task'] } }),
      (request) => {
        if (roleOf(request) === 'reader') return say('read');
        return answered(request)
          ? say('done')
          : calls(['call-t', 'task', { agent: 'reader', query: 'read it' }]);
      },
      reader,
    );
    expect(starts(events)).toEqual([['reader', 'call-t']]);
  });

  it("a router: each domain's child carries the route call id", async () => {
    const router = def('assistant', { router: { domains: ['weather', 'news'] } });
    const events = await run(
      router,
      (request) => {
        switch (roleOf(request)) {
          case 'router':
            return calls([
              'call-route',
              'route',
              {
                targets: [
                  { domain: 'weather', intent: 'forecast' },
                  { domain: 'news', intent: 'headlines' },
                ],
              },
            ]);
          case 'synth':
            return say('briefing');
          default:
            return say('fine');
        }
      },
      def('weather'),
      def('news'),
    );
    expect(starts(events).sort()).toEqual([
      ['news', 'call-route'],
      ['weather', 'call-route'],
    ]);
  });

  it('a workflow step has no tool call: its child names none', async () => {
    const flow = def('flow', { workflow: { kind: 'sequential', agents: [def('step')] } });
    const events = await run(flow, () => say('stepped'));
    expect(starts(events)).toEqual([['step', undefined]]);
  });
});
