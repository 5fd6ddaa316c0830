import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentKind, KindSetting } from '../../contracts/agent-kind.js';
import type { AgentDefinition } from '../../definition/types.js';
import { loadDefinition } from '../../definition/load-definition.js';
import { ConfigError } from '../../errors/cadre-error.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { run } from '../run-verbs.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-kinds-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const base = {
  description: 'Test agent',
  promptConfig: { systemPrompt: 'Be brief.' },
  toolConfig: { tools: [] },
};

/** A kind whose agent answers the prompt backwards, and keeps what it was set up with. */
function reverser(settings: KindSetting[] = []): AgentKind {
  return (definition, setting) => {
    settings.push(setting);
    return {
      agent: {
        name: definition.name,
        description: definition.description,
        async *execute(input) {
          const content = [...input.prompt].reverse().join('');
          yield { type: 'final_result', message: 'Done', data: { content } };
        },
      },
    };
  };
}

const noModel = () =>
  new ScriptedModel(() => {
    throw new Error('a registered kind here makes no model call');
  });

describe('registered agent kinds (scripted models)', () => {
  it('a definition of a registered kind runs as the agent the kind makes, set up with the run', async () => {
    const settings: KindSetting[] = [];
    const result = await run(
      { ...base, name: 'backwards', kind: 'reverse' },
      {
        model: noModel(),
        inputs: { prompt: 'stressed' },
        state: { topic: 'desserts' },
        adapters: { agentKinds: { reverse: reverser(settings) } },
      },
    );
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.final_message).toBe('desserts');
    expect(settings).toEqual([expect.objectContaining({ state: { topic: 'desserts' } })]);
  });

  it('a subagent of a registered kind runs with its root run’s kinds', async () => {
    const child: AgentDefinition = { ...base, name: 'backwards', kind: 'reverse' };
    const parent: AgentDefinition = {
      ...base,
      name: 'parent',
      toolConfig: { tools: ['backwards'] },
      subagents: [child],
    };
    const model = new ScriptedModel((request: ModelRequest): ScriptedTurn => {
      const answer = request.messages
        .at(-1)
        ?.parts.find((part) => part.kind === 'function_response');
      return answer
        ? { parts: [{ text: `child said ${JSON.stringify(answer.response)}` }] }
        : { parts: [{ functionCall: { name: 'backwards', args: { prompt: 'live' } } }] };
    });
    const result = await run(parent, {
      model,
      inputs: { prompt: 'go' },
      adapters: { agentKinds: { reverse: reverser() } },
    });
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.final_message).toContain('evil');
  });

  it('the built-in kinds stay registered when the caller brings adapters of its own', async () => {
    const worker: AgentDefinition = { ...base, name: 'worker', outputKey: 'draft' };
    const flow: AgentDefinition = {
      ...base,
      name: 'flow',
      workflow: { kind: 'sequential', agents: [worker] },
    };
    const result = await run(flow, {
      model: new ScriptedModel([{ parts: [{ text: 'drafted' }] }]),
      inputs: { prompt: 'write' },
      adapters: { agentKinds: { reverse: reverser() } },
    });
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.final_message).toBe('drafted');
  });

  it('a caller’s kind of a built-in name replaces the built-in one', async () => {
    const router: AgentDefinition = { ...base, name: 'router', router: { domains: [] } };
    const result = await run(router, {
      model: noModel(),
      inputs: { prompt: 'abc' },
      adapters: { agentKinds: { router: reverser() } },
    });
    expect(result.final_message).toBe('cba');
  });

  it('an unknown kind is a definition error naming the file and the kind field', async () => {
    const file = path.join(dir, 'reverse.yaml');
    await writeFile(
      file,
      ['name: backwards', 'description: Says it backwards.', 'kind: revers', ''].join('\n'),
    );
    const { definition } = await loadDefinition(file, { cwd: dir });
    const running = run(definition, {
      model: noModel(),
      inputs: { prompt: 'x' },
      adapters: { agentKinds: { reverse: reverser() } },
    });
    await expect(running).rejects.toThrow(ConfigError);
    await expect(running).rejects.toThrow(
      `${file}: kind: "revers" of agent backwards is not an agent kind this run knows (reverse, router, workflow)`,
    );
  });

  it('a kind named after an Object.prototype member is unknown, not a function of every object', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      await expect(
        run({ ...base, name: 'sneaky', kind: name }, { model: noModel(), inputs: { prompt: 'x' } }),
      ).rejects.toThrow(`kind: "${name}" of agent sneaky is not an agent kind this run knows`);
  });
});

describe('kind in a definition file', () => {
  it('loads a kind that is not built in with a note that the run must register it', async () => {
    const file = path.join(dir, 'rooter.yaml');
    await writeFile(file, ['name: sorter', 'description: Sorts.', 'kind: rooter', ''].join('\n'));
    const { definition, warnings } = await loadDefinition(file, { cwd: dir });
    expect(definition.kind).toBe('rooter');
    expect(warnings.map((w) => w.message).join('\n')).toMatch(
      /"rooter" is not a built-in kind \(agent, router\): the run must register it; did you mean "router"\?/,
    );
  });

  it('refuses a kind that is no kind name', async () => {
    const file = path.join(dir, 'spaces.yaml');
    await writeFile(file, ['name: spaced', 'description: Spaces.', 'kind: My Kind', ''].join('\n'));
    await expect(loadDefinition(file, { cwd: dir })).rejects.toThrow(
      /kind.*expected agent, router or the name of a registered agent kind/,
    );
  });

  it.each(['workflow', 'remote'])(
    'refuses `kind: %s` in a Cadre file, naming the field: those agents come from ADK or Gemini CLI files',
    async (kind) => {
      const file = path.join(dir, `${kind}.yaml`);
      await writeFile(file, ['name: made', 'description: Made.', `kind: ${kind}`, ''].join('\n'));
      await expect(loadDefinition(file, { cwd: dir })).rejects.toThrow(
        new RegExp(`kind: "${kind}" agents come from ADK files`),
      );
    },
  );
});
