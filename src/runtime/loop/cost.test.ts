import { describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { AgentDefinition } from '../../definition/types.js';
import { echoTool } from '../../testing/test-tools.js';
import { executeAgent } from './executor.js';

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
    const result = await executeAgent(lead, {
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

  it('max_cost_usd stops the run for its grace turn: MAX_COST, or GOAL recovered from it', async () => {
    const definition: AgentDefinition = {
      name: 'spender',
      description: 'd',
      promptConfig: {},
      modelConfig: { model: 'test-model' },
      toolConfig: { tools: ['echo'] },
      runConfig: { max_cost_usd: 2.5 },
    };
    const calls: string[] = [];
    const model = new ScriptedModel((r): ScriptedTurn => {
      const grace = !r.tools?.some((t) => t.name === 'echo');
      calls.push(grace ? 'grace' : 'turn');
      return grace
        ? { parts: [{ text: 'stopping here' }], usage: million }
        : { parts: [{ functionCall: { name: 'echo', args: { text: 'again' } } }], usage: million };
    });
    const result = await executeAgent(definition, {
      model,
      prices: PRICES,
      tools: [echoTool()],
      inputs: { prompt: 'spend' },
    });
    // $1 per turn: after three turns the run has spent $3 >= $2.50 and gets its grace turn.
    expect(calls).toEqual(['turn', 'turn', 'turn', 'grace']);
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.recovered_from).toBe('MAX_COST');
    expect(result.cost_usd).toBeCloseTo(4, 10);
  });

  it('a model with no known price has no cost, not a zero cost', async () => {
    const result = await executeAgent(
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
