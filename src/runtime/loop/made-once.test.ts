import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../definition/types.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import { agentCatalog, roleAgent } from '../../testing/agent-catalog.js';
import { run } from '../run-verbs.js';
import { createRuntime } from './runtime.js';

/** A definition that makes tools of its own on every run: outputs, a sub-agent, a registered agent and `task`. */
const writer = (): AgentDefinition => ({
  ...roleAgent('writer', ['helper', 'researcher', 'task']),
  subagents: [roleAgent('helper', [])],
  outputConfig: { outputs: { summary: 'The summary.' } },
});

const answersAtOnce = () =>
  new ScriptedModel(() => ({
    parts: [{ functionCall: { name: 'emit_value', args: { name: 'summary', value: 'ok' } } }],
  }));

describe('what a run makes from its definition is made once per runtime (scripted model)', () => {
  it('two runs of a definition with outputs, a sub-agent, an agent tool and task share one tool set', async () => {
    const runtime = await createRuntime();
    const definition = writer();
    const agents = agentCatalog(roleAgent('researcher', []));
    const declarationsSent: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      const model = answersAtOnce();
      await run(definition, { model, runtime, agents, inputs: { prompt: 'go' } });
      declarationsSent.push(model.requests[0]?.tools);
    }
    const set = runtime.toolSets?.get(definition);
    expect(set?.registry.names().sort()).toEqual(['helper', 'researcher', 'task']);
    expect(set?.declarations.map((d) => d.name)).toContain('emit_value');
    // The second run offered the very same objects: the set made by the first was reused.
    const [first, second] = declarationsSent as Array<Array<{ name: string }>>;
    expect(second?.map((d) => d.name)).toEqual(first?.map((d) => d.name));
    const third = answersAtOnce();
    await run(definition, { model: third, runtime, agents, inputs: { prompt: 'go' } });
    expect(runtime.toolSets?.get(definition)).toBe(set);
  });

  it('task is made again when the agents it lists change', async () => {
    const runtime = await createRuntime();
    const definition = roleAgent('lead', ['task']);
    await run(definition, {
      model: answersAtOnce(),
      runtime,
      agents: agentCatalog(roleAgent('one', [])),
      inputs: { prompt: 'go' },
    });
    const before = runtime.toolSets?.get(definition);
    await run(definition, {
      model: answersAtOnce(),
      runtime,
      agents: agentCatalog(roleAgent('one', []), roleAgent('two', [])),
      inputs: { prompt: 'go' },
    });
    const after = runtime.toolSets?.get(definition);
    expect(after).not.toBe(before);
    expect(after?.registry.get('task')?.description).toContain('two');
  });
});
