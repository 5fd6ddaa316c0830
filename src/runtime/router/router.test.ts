import { describe, expect, it } from 'vitest';
import type { AgentEntry, AgentLookup } from '../../contracts/agent.js';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import { echoTool } from '../../testing/test-tools.js';
import { run } from '../run-verbs.js';

const domain = (name: string, examples: string[] = []): AgentDefinition => ({
  name,
  description: `Knows about ${name}.\nSecond line the router must not see.`,
  examples,
  promptConfig: { systemPrompt: `ROLE:${name}` },
  toolConfig: { tools: ['echo'] },
});

const router: AgentDefinition = {
  name: 'assistant',
  description: 'Routes',
  promptConfig: { systemPrompt: 'ROLE:router' },
  toolConfig: { tools: [] },
  router: { domains: ['weather', 'news', 'recipes'], domainTimeoutSecs: 0.3 },
};

function catalog(...definitions: AgentDefinition[]): AgentLookup {
  const map = new Map<string, AgentEntry>(
    definitions.map((d) => [d.name, { kind: 'definition', definition: d }]),
  );
  return { get: (n) => map.get(n), names: () => [...map.keys()] };
}
const agents = catalog(
  domain('weather', ['Will it rain?']),
  domain('news'),
  domain('recipes'),
  router,
);
const role = (r: ModelRequest): string =>
  /ROLE:(\S+)/.exec(r.systemInstruction ?? '')?.[1] ??
  (r.tools.some((t) => t.name === 'route') ? 'router' : 'synth');
const route = (
  targets: Array<{ domain: string; intent: string }>,
  direct?: string,
): ScriptedTurn => ({
  parts: [
    {
      functionCall: {
        name: 'route',
        args: { targets, ...(direct ? { direct_answer: direct } : {}) },
      },
    },
  ],
});

describe('kind: router (scripted model responses)', () => {
  it('runs the targeted domains in parallel; a slow domain reports "timed out" and the synthesizer still answers', async () => {
    const events: CadreEvent[] = [];
    const model = new ScriptedModel((request) => {
      switch (role(request)) {
        case 'router':
          return route([
            { domain: 'weather', intent: 'forecast' },
            { domain: 'news', intent: 'headlines' },
          ]);
        case 'weather':
          return { parts: [{ text: 'sunny' }], delayMs: 5000 };
        case 'news':
          return { parts: [{ text: 'markets up' }] };
        default:
          return { parts: [{ text: 'News: markets up. Weather: unavailable.' }] };
      }
    });
    const started = performance.now();
    const result = await run(router, {
      model,
      agents,
      tools: [echoTool()],
      inputs: { prompt: 'Morning briefing' },
      onEvent: (e) => events.push(e),
    });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.content).toBe('News: markets up. Weather: unavailable.');
    const synth = model.requests.find((r) => role(r) === 'synth');
    expect(synth?.messages[0]?.parts[0]).toMatchObject({
      text: expect.stringContaining('- weather: timed out'),
    });
    expect(synth?.messages[0]?.parts[0]).toMatchObject({
      text: expect.stringContaining('- news: markets up'),
    });
    expect(result.output).toMatchObject({
      results: [
        { domain: 'weather', status: 'timed_out' },
        { domain: 'news', status: 'completed' },
      ],
    });
    expect(events.filter((e) => e.type === 'subagent_started').map((e) => e.data.agent)).toEqual([
      'weather',
      'news',
    ]);
    expect(model.requests.find((r) => role(r) === 'news')?.messages[0]?.parts[0]).toMatchObject({
      text: expect.stringContaining('Intent: headlines'),
    });
  });

  it('shows the router one line per domain with examples, and no domain tools', async () => {
    const model = new ScriptedModel((request) =>
      role(request) === 'router' ? route([], 'Hello!') : { parts: [{ text: 'x' }] },
    );
    const result = await run(router, {
      model,
      agents,
      tools: [echoTool()],
      inputs: { prompt: 'hi' },
    });
    const routing = model.requests[0];
    expect(routing?.systemInstruction).toContain(
      '- weather: Knows about weather. (e.g. "Will it rain?")',
    );
    expect(routing?.systemInstruction).not.toContain('Second line');
    expect(routing?.tools.map((t) => t.name)).toEqual(['route']);
    expect(result.content).toBe('Hello!');
    expect(model.requests).toHaveLength(1);
  });

  it('drops unknown domains and honours only_domains', async () => {
    const model = new ScriptedModel((request) =>
      role(request) === 'router'
        ? route([
            { domain: 'nope', intent: 'x' },
            { domain: 'recipes', intent: 'dinner' },
            { domain: 'news', intent: 'y' },
          ])
        : { parts: [{ text: `${role(request)} answer` }] },
    );
    await run(router, {
      model,
      agents,
      tools: [echoTool()],
      inputs: { prompt: 'q' },
      router: { onlyDomains: ['recipes', 'weather'] },
    });
    expect(model.requests.map(role).sort()).toEqual(['recipes', 'router', 'synth']);
    expect(model.requests[0]?.systemInstruction).not.toContain('- news:');
  });
});
