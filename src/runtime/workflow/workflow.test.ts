import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelClient,
  type ModelRequest,
} from '../../model/types.js';
import { loadDefinition } from '../../definition/load-definition.js';
import { ValidationError } from '../../errors/validation-error.js';
import { run as runDefinition } from '../run-verbs.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-adk-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes a small ADK project: file name → YAML lines. */
async function project(name: string, files: Record<string, string[]>): Promise<string> {
  const root = path.join(dir, name);
  for (const [file, lines] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), `${lines.join('\n')}\n`);
  }
  return path.join(root, 'root_agent.yaml');
}

const llm = (name: string, instruction: string, extra: string[] = []) => [
  `name: ${name}`,
  'model: gemini-2.5-flash',
  `description: The ${name}.`,
  `instruction: ${JSON.stringify(instruction)}`,
  ...extra,
];

/** Which agent a request is for: each instruction starts with "You are <name>". */
const agentOf = (r: ModelRequest) => /You are (\w+)/.exec(r.systemInstruction ?? '')?.[1] ?? '?';
const lastParts = (r: ModelRequest) => r.messages.at(-1)?.parts ?? [];
const answered = (r: ModelRequest) => lastParts(r).some((p) => p.kind === 'function_response');

async function run(file: string, model: ModelClient, signal?: AbortSignal) {
  const { definition, warnings } = await loadDefinition(file, { cwd: dir });
  const events: CadreEvent[] = [];
  const result = await runDefinition(definition, {
    model,
    workspace: dir,
    inputs: { prompt: 'a poem about rain' },
    onEvent: (e) => events.push(e),
    ...(signal ? { signal } : {}),
  });
  return { definition, warnings, result, events };
}

describe('ADK multi-agent configs (multi-file projects, scripted model responses)', () => {
  it('SequentialAgent runs its sub-agents in order; output_key answers reach later agents through state', async () => {
    const file = await project('sequential', {
      'root_agent.yaml': [
        'agent_class: SequentialAgent',
        'name: pipeline',
        'description: Writes, then reviews.',
        'sub_agents:',
        '  - config_path: agents/writer.yaml',
        '  - config_path: agents/reviewer.yaml',
      ],
      'agents/writer.yaml': llm('writer', 'You are writer. Write a draft.', ['output_key: draft']),
      'agents/reviewer.yaml': llm('reviewer', 'You are reviewer. Review this draft: {draft}', [
        'output_key: review',
      ]),
    });
    const seen: string[] = [];
    const model = new ScriptedModel((r): ScriptedTurn => {
      const agent = agentOf(r);
      seen.push(`${agent}: ${r.systemInstruction ?? ''}`);
      return { parts: [{ text: agent === 'writer' ? 'Rain on the roof.' : 'Fine, ship it.' }] };
    });
    const { definition, result, events } = await run(file, model);
    expect(definition.workflow).toMatchObject({
      kind: 'sequential',
      agents: [
        { name: 'writer', outputKey: 'draft' },
        { name: 'reviewer', outputKey: 'review' },
      ],
    });
    expect(result.error).toBeUndefined();
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.final_message).toBe('Fine, ship it.');
    expect(result.output).toMatchObject({
      state: { draft: 'Rain on the roof.', review: 'Fine, ship it.' },
    });
    expect(seen.map((s) => s.split(':')[0])).toEqual(['writer', 'reviewer']);
    // The reviewer read the writer's answer from the state.
    expect(seen[1]).toContain('Review this draft: Rain on the roof.');
    expect(events.filter((e) => e.type === 'workflow_step').map((e) => e.message)).toEqual([
      'Running writer',
      'Running reviewer',
    ]);
  });

  it('ParallelAgent runs its sub-agents at once and answers with each', async () => {
    const file = await project('parallel', {
      'root_agent.yaml': [
        'agent_class: ParallelAgent',
        'name: fan_out',
        'description: Asks two experts.',
        'sub_agents:',
        '  - config_path: a.yaml',
        '  - config_path: b.yaml',
      ],
      'a.yaml': llm('alpha', 'You are alpha.', ['output_key: a']),
      'b.yaml': llm('beta', 'You are beta.', ['output_key: b']),
    });
    // Each call waits until both have started (bounded): run one after another, the first
    // would time out waiting and say so in its answer.
    let started = 0;
    let release = (): void => {};
    const bothStarted = { promise: new Promise<void>((resolve) => (release = resolve)) };
    const model = new ScriptedModel((r): ScriptedTurn => ({
      parts: [{ text: `${agentOf(r)} says hi` }],
    }));
    const barrier: ModelClient = {
      specificationVersion: MODEL_SPECIFICATION_VERSION,
      provider: 'scripted',
      async *generate(request, signal) {
        started += 1;
        if (started === 2) release();
        const stream = model.generate(request, signal);
        const timedOut = await Promise.race([
          bothStarted.promise.then(() => false),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 5_000).unref()),
        ]);
        if (timedOut) throw new Error('ran one after another');
        yield* stream;
      },
    };
    const { result } = await run(file, barrier);
    expect(result.final_message).toBe('alpha: alpha says hi\n\nbeta: beta says hi');
    expect(result.output).toMatchObject({ state: { a: 'alpha says hi', b: 'beta says hi' } });
    expect(model.requests).toHaveLength(2);
  });

  it('LoopAgent repeats until an agent calls exit_loop, within max_iterations', async () => {
    const file = await project('loop', {
      'root_agent.yaml': [
        'agent_class: LoopAgent',
        'name: refine',
        'description: Improves until good.',
        'max_iterations: 5',
        'sub_agents:',
        '  - config_path: critic.yaml',
      ],
      'critic.yaml': llm('critic', 'You are critic. Call exit_loop when it is good.', [
        'tools:',
        '  - name: exit_loop',
      ]),
    });
    let rounds = 0;
    const model = new ScriptedModel((r): ScriptedTurn => {
      if (answered(r)) return { parts: [{ text: 'Good now.' }] };
      rounds += 1;
      return rounds < 3
        ? { parts: [{ text: `Round ${rounds}: needs work.` }] }
        : { parts: [{ functionCall: { name: 'exit_loop', args: { reason: 'good' } } }] };
    });
    const { result, events } = await run(file, model);
    expect(rounds).toBe(3);
    expect(result.final_message).toBe('Good now.');
    expect(
      events.filter((e) => e.type === 'workflow_step' && /^Round/.test(e.message)),
    ).toHaveLength(3);
    expect(events.some((e) => e.type === 'loop_exit_requested')).toBe(true);
  });

  it('LoopAgent without an exit stops at max_iterations', async () => {
    const file = await project('bounded', {
      'root_agent.yaml': [
        'agent_class: LoopAgent',
        'name: bounded',
        'description: d',
        'max_iterations: 2',
        'sub_agents:',
        '  - config_path: step.yaml',
      ],
      'step.yaml': llm('step', 'You are step.'),
    });
    const model = new ScriptedModel(() => ({ parts: [{ text: 'again' }] }));
    await run(file, model);
    expect(model.requests).toHaveLength(2);
  });

  it('a LoopAgent’s max_cost_usd bounds its sub-agents’ calls together (real prices)', async () => {
    const file = await project('budgeted', {
      'root_agent.yaml': [
        'agent_class: LoopAgent',
        'name: budgeted',
        'description: d',
        'max_iterations: 50',
        'sub_agents:',
        '  - config_path: step.yaml',
      ],
      'step.yaml': llm('step', 'You are step.', [
        'generate_content_config:',
        '  max_output_tokens: 500',
      ]),
    });
    // 1,000 tokens in and 400 out of gemini-2.5-flash: $0.0013 a call.
    const usage = { inputTokens: 1_000, outputTokens: 400, thoughtTokens: 0, totalTokens: 1_400 };
    const callUsd = (1_000 * 0.3 + 400 * 2.5) / 1e6;
    const model = new ScriptedModel(() => ({ parts: [{ text: 'again' }], usage }));
    const { definition } = await loadDefinition(file, { cwd: dir });
    const cap = 0.01;
    const result = await runDefinition(
      { ...definition, runConfig: { ...definition.runConfig, max_cost_usd: cap } },
      { model, workspace: dir, inputs: { prompt: 'go' } },
    );
    // Each step is a new child with no cap of its own: only the loop's budget stops the iterations.
    expect(model.requests.length).toBeGreaterThan(3);
    expect(model.requests.length * callUsd).toBeLessThanOrEqual(cap + callUsd);
    expect(model.requests.every((r) => r.config.maxOutputTokens === 500)).toBe(true);
    expect(result.cost_usd ?? 0).toBeLessThanOrEqual(cap + callUsd);
  });

  it('an LlmAgent with sub_agents offers them as tools', async () => {
    const file = await project('delegating', {
      'root_agent.yaml': [
        ...llm('lead', 'You are lead. Ask helper.'),
        'sub_agents:',
        '  - config_path: helper.yaml',
      ],
      'helper.yaml': llm('helper', 'You are helper.'),
    });
    const model = new ScriptedModel((r): ScriptedTurn => {
      if (agentOf(r) === 'helper') return { parts: [{ text: 'helped' }] };
      return answered(r)
        ? { parts: [{ text: `lead got: ${JSON.stringify(lastParts(r))}` }] }
        : { parts: [{ functionCall: { name: 'helper', args: { prompt: 'help' } } }] };
    });
    const { definition, result } = await run(file, model);
    expect(definition.toolConfig.tools).toEqual(['helper']);
    expect(model.requests[0]?.tools?.map((t) => t.name)).toContain('helper');
    expect(result.final_message).toContain('helped');
  });

  it('include_contents: none keeps earlier answers out of an agent; state still reaches it (scripted)', async () => {
    const file = await project('no-contents', {
      'root_agent.yaml': [
        'agent_class: SequentialAgent',
        'name: pipeline',
        'description: d',
        'sub_agents:',
        '  - config_path: writer.yaml',
        '  - config_path: judge.yaml',
      ],
      'writer.yaml': llm('writer', 'You are writer.', ['output_key: draft']),
      'judge.yaml': llm('judge', 'You are judge. Judge: {draft}', ['include_contents: none']),
    });
    const seen: string[] = [];
    const model = new ScriptedModel((r): ScriptedTurn => {
      seen.push(r.systemInstruction ?? '');
      return { parts: [{ text: agentOf(r) === 'writer' ? 'Drops on glass.' : 'Good.' }] };
    });
    const { result } = await run(file, model);
    expect(result.terminate_reason).toBe('GOAL');
    expect(seen[1]).toContain('Judge: Drops on glass.');
    expect(seen[1]).not.toContain('writer answered');
  });

  it('a missing config_path sub-agent is an error naming the file and the path; a workflow left with none refuses to run', async () => {
    const file = await project('missing', {
      'root_agent.yaml': [
        'agent_class: SequentialAgent',
        'name: partial',
        'description: d',
        'instruction: You are partial.',
        'sub_agents:',
        '  - config_path: gone.yaml',
        '  - code: my_module.agent',
      ],
    });
    const error = await loadDefinition(file, { cwd: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues;
    expect(issues.map((i) => `${i.file}:${i.line} ${i.severity} ${i.path}: ${i.message}`)).toEqual([
      'missing/root_agent.yaml:1 error agent_class: SequentialAgent has no sub-agent Cadre can load; it cannot run',
      'missing/root_agent.yaml:6 error sub_agents.0.config_path: sub-agent gone.yaml could not be loaded: file not found (missing/gone.yaml)',
      'missing/root_agent.yaml:7 warning sub_agents.1.code: sub-agent my_module.agent is Python code, which Cadre cannot import; left out',
    ]);
  });

  it('a mistyped config_path in a LoopAgent is an error even when another sub-agent loads', async () => {
    const file = await project('mistyped', {
      'root_agent.yaml': [
        'agent_class: LoopAgent',
        'name: looping',
        'description: d',
        'sub_agents:',
        '  - config_path: step.yaml',
        '  - config_path: stpe.yaml',
        '  - config: step.yaml',
      ],
      'step.yaml': llm('step', 'You are step.'),
    });
    const error = await loadDefinition(file, { cwd: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => `${i.line} ${i.path}`)).toEqual([
      '6 sub_agents.1.config_path',
      '7 sub_agents.2',
    ]);
    expect((error as ValidationError).message).toContain('stpe.yaml could not be loaded');
  });

  it("a Parallel inside a Sequential hands its agents' state to the agents after it", async () => {
    const file = await project('fan-in', {
      'root_agent.yaml': [
        'agent_class: SequentialAgent',
        'name: pipeline',
        'description: d',
        'sub_agents:',
        '  - config_path: fan.yaml',
        '  - config_path: merge.yaml',
      ],
      'fan.yaml': [
        'agent_class: ParallelAgent',
        'name: fan',
        'description: d',
        'sub_agents:',
        '  - config_path: a.yaml',
        '  - config_path: b.yaml',
      ],
      'a.yaml': llm('alpha', 'You are alpha.', ['output_key: a']),
      'b.yaml': llm('beta', 'You are beta.', ['output_key: b']),
      'merge.yaml': llm('merger', 'You are merger. A={a} B={b}'),
    });
    const model = new ScriptedModel((r): ScriptedTurn => ({
      parts: [{ text: agentOf(r) === 'merger' ? (r.systemInstruction ?? '') : `${agentOf(r)} ok` }],
    }));
    const { result } = await run(file, model);
    expect(result.final_message).toContain('A=alpha ok B=beta ok');
  });

  it('a step that fails ends the workflow as failed; later agents do not run', async () => {
    const file = await project('failing', {
      'root_agent.yaml': [
        'agent_class: LoopAgent',
        'name: loop',
        'description: d',
        'max_iterations: 3',
        'sub_agents:',
        '  - config_path: writer.yaml',
        '  - config_path: reviewer.yaml',
      ],
      'writer.yaml': llm('writer', 'You are writer.', ['output_key: draft']),
      'reviewer.yaml': llm('reviewer', 'You are reviewer. {draft}'),
    });
    const seen: string[] = [];
    const model = new ScriptedModel((r): ScriptedTurn => {
      seen.push(agentOf(r));
      if (agentOf(r) === 'writer') throw new Error('writer exploded');
      return { parts: [{ text: 'reviewed' }] };
    });
    const { result } = await run(file, model);
    expect(result.terminate_reason).toBe('ERROR');
    expect(result.error?.message).toMatch(/writer ended with ERROR/);
    expect(seen).toEqual(['writer']);
  });

  it('cancelling ends the workflow as ABORTED', async () => {
    const file = await project('cancelled', {
      'root_agent.yaml': [
        'agent_class: SequentialAgent',
        'name: seq',
        'description: d',
        'sub_agents:',
        '  - config_path: one.yaml',
        '  - config_path: two.yaml',
      ],
      'one.yaml': llm('one', 'You are one.'),
      'two.yaml': llm('two', 'You are two.'),
    });
    const stop = new AbortController();
    const model = new ScriptedModel((r): ScriptedTurn => {
      if (agentOf(r) === 'one') stop.abort();
      return { parts: [{ text: 'answer' }] };
    });
    const { result } = await run(file, model, stop.signal);
    expect(result.terminate_reason).toBe('ABORTED');
    expect(model.requests.map(agentOf)).toEqual(['one']);
  });

  it('a cycle of config_path references is an error, not a hang', async () => {
    const file = await project('cycle', {
      'root_agent.yaml': [
        'agent_class: SequentialAgent',
        'name: outer',
        'description: d',
        'sub_agents:',
        '  - config_path: inner.yaml',
      ],
      'inner.yaml': [
        'agent_class: SequentialAgent',
        'name: inner',
        'description: d',
        'sub_agents:',
        '  - config_path: root_agent.yaml',
      ],
    });
    const error = await loadDefinition(file, { cwd: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain(
      'root_agent.yaml is already being loaded (a cycle)',
    );
  });
});
