import { describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { AgentDefinition } from '../../definition/types.js';
import { echoTool } from '../../testing/test-tools.js';
import { run } from '../run-verbs.js';

const PRICES = { 'test-model': { input: 1, output: 10 } };
const million = {
  inputTokens: 1_000_000,
  outputTokens: 0,
  thoughtTokens: 0,
  totalTokens: 1_000_000,
};

describe('cost (scripted model responses with usage)', () => {
  it('prices every model call, adds subagents, and lists each subagent', async () => {
    const helper: AgentDefinition = {
      name: 'helper',
      description: 'Helps.',
      promptConfig: { systemPrompt: 'You are helper.' },
      modelConfig: { model: 'test-model' },
      toolConfig: { tools: [] },
    };
    const lead: AgentDefinition = {
      name: 'lead',
      description: 'Leads.',
      promptConfig: { systemPrompt: 'You are lead.' },
      modelConfig: { model: 'test-model' },
      toolConfig: { tools: ['helper'] },
    };
    const model = new ScriptedModel((r): ScriptedTurn => {
      if (r.systemInstruction?.includes('You are helper'))
        return { parts: [{ text: 'helped' }], usage: { ...million, inputTokens: 500_000 } };
      const answered = r.messages.at(-1)?.parts.some((p) => p.kind === 'function_response');
      return answered
        ? { parts: [{ text: 'done' }], usage: million }
        : { parts: [{ functionCall: { name: 'helper', args: { prompt: 'go' } } }], usage: million };
    });
    const result = await run(lead, {
      model,
      prices: PRICES,
      inputs: { prompt: 'go' },
      agents: {
        get: (name) => (name === 'helper' ? { kind: 'definition', definition: helper } : undefined),
        names: () => ['helper'],
      },
    });
    // lead: two calls of 1M input at $1/M; helper one call of 0.5M.
    expect(result.usage.costUsd).toBeCloseTo(2, 10);
    expect(result.subagent_costs).toEqual([
      { agent: 'helper', execution_id: expect.any(String), cost_usd: expect.closeTo(0.5, 10) },
    ]);
    expect(result.cost_usd).toBeCloseTo(2.5, 10);
  });

  it('max_cost_usd is a ceiling: a first call over budget is the only call, and the run ends MAX_COST', async () => {
    const definition: AgentDefinition = {
      name: 'spender',
      description: 'd',
      promptConfig: {},
      modelConfig: { model: 'test-model' },
      toolConfig: { tools: ['echo'] },
      runConfig: { max_cost_usd: 0.5 },
    };
    let calls = 0;
    const model = new ScriptedModel((): ScriptedTurn => {
      calls++;
      return {
        parts: [{ functionCall: { name: 'echo', args: { text: 'again' } } }],
        usage: million,
      };
    });
    const result = await run(definition, {
      model,
      prices: PRICES,
      tools: [echoTool()],
      inputs: { prompt: 'spend' },
    });
    // $1 on the first call against $0.50: no next turn, no grace turn.
    expect(calls).toBe(1);
    expect(result.terminate_reason).toBe('MAX_COST');
    expect(result.recovered_from).toBeUndefined();
    expect(result.cost_usd).toBeCloseTo(1, 10);
    expect(result.final_message).toBe('Agent reached the cost limit ($0.5).');
  });

  it('stops before the call whose worst case would cross max_cost_usd, not after it', async () => {
    const definition: AgentDefinition = {
      name: 'spender',
      description: 'd',
      promptConfig: {},
      // Each call may write 50,000 tokens ($0.50 at $10/M): that is what it reserves.
      modelConfig: { model: 'test-model', maxOutputTokens: 50_000 },
      toolConfig: { tools: ['echo'] },
      runConfig: { max_cost_usd: 1.6 },
    };
    let calls = 0;
    const model = new ScriptedModel((): ScriptedTurn => {
      calls++;
      return {
        parts: [{ functionCall: { name: 'echo', args: { text: 'again' } } }],
        usage: { inputTokens: 10, outputTokens: 50_000, thoughtTokens: 0, totalTokens: 50_010 },
      };
    });
    const result = await run(definition, {
      model,
      prices: PRICES,
      tools: [echoTool()],
      inputs: { prompt: 'spend' },
    });
    // $1.50 spent: a fourth call could reach $2.00, so it never starts (checking after it would have let it).
    expect(calls).toBe(3);
    expect(result.terminate_reason).toBe('MAX_COST');
    expect(result.cost_usd).toBeCloseTo(1.5 + 30 / 1e6, 10);
  });

  it('gives no grace turn for another limit once the budget is spent', async () => {
    const definition: AgentDefinition = {
      name: 'reporter',
      description: 'd',
      promptConfig: {},
      modelConfig: { model: 'test-model' },
      toolConfig: { tools: [] },
      outputConfig: { outputName: 'report' },
      runConfig: { max_cost_usd: 0.5 },
    };
    let calls = 0;
    // Text instead of complete_task would earn a grace turn, were it free.
    const model = new ScriptedModel((): ScriptedTurn => {
      calls++;
      return { parts: [{ text: 'here is some prose' }], usage: million };
    });
    const result = await run(definition, {
      model,
      prices: PRICES,
      inputs: { prompt: 'report' },
    });
    expect(calls).toBe(1);
    expect(result.terminate_reason).toBe('MAX_COST');
  });

  it('starts no subagent once the budget is spent', async () => {
    const helper: AgentDefinition = {
      name: 'helper',
      description: 'Helps.',
      promptConfig: { systemPrompt: 'You are helper.' },
      modelConfig: { model: 'test-model' },
      toolConfig: { tools: [] },
    };
    const lead: AgentDefinition = {
      name: 'lead',
      description: 'Leads.',
      promptConfig: { systemPrompt: 'You are lead.' },
      modelConfig: { model: 'test-model' },
      toolConfig: { tools: ['helper'] },
      runConfig: { max_cost_usd: 0.5 },
    };
    const asked: string[] = [];
    const model = new ScriptedModel((r): ScriptedTurn => {
      const who = r.systemInstruction?.includes('You are helper') ? 'helper' : 'lead';
      asked.push(who);
      return who === 'helper'
        ? { parts: [{ text: 'helped' }], usage: million }
        : { parts: [{ functionCall: { name: 'helper', args: { prompt: 'go' } } }], usage: million };
    });
    const result = await run(lead, {
      model,
      prices: PRICES,
      inputs: { prompt: 'go' },
      agents: {
        get: (name) => (name === 'helper' ? { kind: 'definition', definition: helper } : undefined),
        names: () => ['helper'],
      },
    });
    expect(asked).toEqual(['lead']);
    expect(result.terminate_reason).toBe('MAX_COST');
    expect(result.subagent_costs).toBeUndefined();
    expect(result.cost_usd).toBeCloseTo(1, 10);
  });

  it('a model with no known price has no cost, not a zero cost', async () => {
    const result = await run(
      {
        name: 'a',
        description: 'd',
        promptConfig: {},
        modelConfig: { model: 'mystery' },
        toolConfig: { tools: [] },
      },
      {
        model: new ScriptedModel([{ parts: [{ text: 'hi' }], usage: million }]),
        prices: PRICES,
        inputs: { prompt: 'x' },
      },
    );
    expect(result.cost_usd).toBeUndefined();
    expect(result.usage.costUsd).toBeUndefined();
  });
});
