import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, priceFor } from '../../cost/prices.js';
import type { RunState } from '../../contracts/run-state.js';
import type { AgentDefinition } from '../../definition/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { agentCatalog } from '../../testing/agent-catalog.js';
import { runSpawningTree } from '../../testing/spawning-tree.js';
import { echoTool, sendTool } from '../../testing/test-tools.js';
import type { ConfirmationHandler } from '../../contracts/confirmation.js';
import { resume, run, start } from '../run-verbs.js';

/**
 * `max_cost_usd` caps a whole run tree: every model call reserves its worst
 * case first against its own cap and every cap above it. Costs come from the
 * built-in price table (gemini-2.5-flash: $0.30 in, $2.50 out per million).
 */
const MODEL = 'gemini-2.5-flash';
const PRICE = priceFor(MODEL, DEFAULT_PRICES)!;
const usd = (inputTokens: number, outputTokens: number): number =>
  (inputTokens * PRICE.input + outputTokens * PRICE.output) / 1e6;
/** Each scripted call bills 1,000 tokens in and 400 out. */
const CALL = { inputTokens: 1_000, outputTokens: 400, thoughtTokens: 0, totalTokens: 1_400 };
const CALL_USD = usd(CALL.inputTokens, CALL.outputTokens);

const agent = (name: string, tools: string[], extra: Partial<AgentDefinition> = {}) =>
  ({
    name,
    description: name,
    promptConfig: { systemPrompt: `ROLE:${name}` },
    modelConfig: { model: MODEL, maxOutputTokens: 500 },
    toolConfig: { tools },
    ...extra,
  }) satisfies AgentDefinition;
const roleOf = (r: ModelRequest) => /ROLE:(\w+)/.exec(r.systemInstruction ?? '')?.[1] ?? '?';
const echoForever: ScriptedTurn = {
  parts: [{ functionCall: { name: 'echo', args: { text: 'again' } } }],
  usage: CALL,
};

describe('one cost budget for the run tree (scripted models, real price table)', () => {
  it('a 3-level tree making 8 parallel task calls per turn stays within the cap plus one call', async () => {
    const cap = 0.1;
    const tree = await runSpawningTree({ capUsd: cap, fanOut: 8, levels: 3, outputTokens: 500 });
    const overrun = tree.spentUsd - cap;
    console.log(
      `tree budget, 3 levels x 8 parallel task calls, cap $${cap}: spent $${tree.spentUsd.toFixed(5)} ` +
        `in ${tree.calls} model calls, worst overrun $${overrun.toFixed(5)} ` +
        `(costliest call $${tree.costliestCallUsd.toFixed(5)})`,
    );
    expect(tree.result.terminate_reason).toBe('MAX_COST');
    // The result's cost is the tree's, as billed.
    expect(tree.result.cost_usd).toBeCloseTo(tree.spentUsd, 10);
    expect(tree.spentUsd).toBeLessThanOrEqual(cap + tree.costliestCallUsd);
    // Every call writes its 500 output tokens, so none costs less than that: a bound on the count.
    const cheapest = usd(0, 500);
    expect(tree.calls).toBeLessThanOrEqual(Math.floor((cap + tree.costliestCallUsd) / cheapest));
    // The tree did grow to its third level before the budget stopped it (1 + 8 agents above it).
    expect(tree.calls).toBeGreaterThan(9);
  });

  it('input billed at three times what the estimate assumed: the first call calibrates the rest of the tree', async () => {
    const cap = 0.1;
    const tree = await runSpawningTree({ capUsd: cap, inputFactor: 3 });
    // Uncalibrated, the ~70 calls in flight each overran by their misjudged input (7 calls' worth in all).
    expect(tree.spentUsd).toBeLessThanOrEqual(cap + tree.costliestCallUsd);
    expect(tree.result.terminate_reason).toBe('MAX_COST');
  });

  it('a child whose own cap is higher still stops at the tree’s cap (its own spend is not the limit)', async () => {
    const cap = 0.005;
    const worker = agent('worker', ['echo'], { runConfig: { max_cost_usd: 1 } });
    const lead = agent('lead', ['worker'], { runConfig: { max_cost_usd: cap } });
    const asked: string[] = [];
    const model = new ScriptedModel((r): ScriptedTurn => {
      asked.push(roleOf(r));
      if (roleOf(r) === 'worker') return echoForever;
      return r.messages.at(-1)?.parts.some((p) => p.kind === 'function_response')
        ? { parts: [{ text: 'done' }], usage: CALL }
        : { parts: [{ functionCall: { name: 'worker', args: { prompt: 'go' } } }], usage: CALL };
    });
    const result = await run(lead, {
      model,
      tools: [echoTool()],
      inputs: { prompt: 'go' },
      agents: agentCatalog(worker, lead),
    });
    const spent = asked.length * CALL_USD;
    // Counting only its own $1 cap, the worker would run all 30 of its turns.
    expect(asked.filter((who) => who === 'worker').length).toBeLessThan(5);
    expect(spent).toBeLessThanOrEqual(cap + CALL_USD);
    expect(result.cost_usd).toBeCloseTo(spent, 10);
    expect(result.subagent_costs?.[0]).toMatchObject({ agent: 'worker' });
  });

  it('releases what a call held beyond its real cost, so cheap calls go on past cap / worst case', async () => {
    const cap = 0.005;
    const cheap = { inputTokens: 100, outputTokens: 10, thoughtTokens: 0, totalTokens: 110 };
    let calls = 0;
    const model = new ScriptedModel((): ScriptedTurn => {
      calls++;
      return { ...echoForever, usage: cheap };
    });
    const result = await run(
      agent('cheap', ['echo'], { runConfig: { max_cost_usd: cap, max_turns: 12 } }),
      {
        model,
        tools: [echoTool()],
        inputs: { prompt: 'go' },
      },
    );
    // One call holds at least its 500 output tokens' worth: were that kept, at most 4 would start.
    expect(Math.floor(cap / usd(0, 500))).toBe(4);
    expect(calls).toBeGreaterThanOrEqual(12);
    expect(result.terminate_reason).not.toBe('MAX_COST');
    expect(result.cost_usd).toBeCloseTo(calls * usd(100, 10), 10);
  });

  it('no grace turn when its worst case would not fit what is left: MAX_TURNS ends as MAX_COST', async () => {
    let calls = 0;
    const events: string[] = [];
    const model = new ScriptedModel((): ScriptedTurn => {
      calls++;
      return echoForever;
    });
    const result = await run(
      agent('brief', ['echo'], {
        runConfig: { max_turns: 2, max_cost_usd: 2 * CALL_USD + 0.0005 },
      }),
      { model, tools: [echoTool()], inputs: { prompt: 'go' }, onEvent: (e) => events.push(e.type) },
    );
    expect(calls).toBe(2);
    expect(result.terminate_reason).toBe('MAX_COST');
    expect(events).not.toContain('recovery_started');
  });

  it('a child with a lower cap of its own stops there, and the parent goes on within its own', async () => {
    const childCap = 0.003;
    const worker = agent('worker', ['echo'], { runConfig: { max_cost_usd: childCap } });
    const lead = agent('lead', ['worker'], { runConfig: { max_cost_usd: 1 } });
    const asked: string[] = [];
    const model = new ScriptedModel((r): ScriptedTurn => {
      asked.push(roleOf(r));
      if (roleOf(r) === 'worker') return echoForever;
      return r.messages.at(-1)?.parts.some((p) => p.kind === 'function_response')
        ? { parts: [{ text: 'done' }], usage: CALL }
        : { parts: [{ functionCall: { name: 'worker', args: { prompt: 'go' } } }], usage: CALL };
    });
    const result = await run(lead, {
      model,
      tools: [echoTool()],
      inputs: { prompt: 'go' },
      agents: agentCatalog(worker, lead),
    });
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.final_message).toBe('done');
    const workerCost = result.subagent_costs?.[0]?.cost_usd ?? Infinity;
    expect(workerCost).toBeGreaterThan(0);
    expect(workerCost).toBeLessThanOrEqual(childCap + CALL_USD);
    expect(asked.filter((who) => who === 'worker').length).toBe(Math.round(workerCost / CALL_USD));
  });

  it('resume keeps what the tree spent before the pause, in another process’s run', async () => {
    const cap = 0.01;
    const askLater: ConfirmationHandler = () => Promise.resolve({ kind: 'pause' });
    const before = 5;
    let n = 0;
    // Five paid turns, then a call that waits for a person.
    const first = new ScriptedModel((): ScriptedTurn => {
      n++;
      return n <= before
        ? echoForever
        : { parts: [{ functionCall: { name: 'send', args: { to: 'ann' } } }], usage: CALL };
    });
    const spender = agent('spender', ['echo', 'send'], { runConfig: { max_cost_usd: cap } });
    const tools = [echoTool(), sendTool()];
    const paused = await start(spender, {
      model: first,
      tools,
      inputs: { prompt: 'go' },
      confirm: askLater,
    });
    if (paused.status !== 'paused') throw new Error('expected a pause');
    const spentBefore = (before + 1) * CALL_USD;
    expect(paused.state.costSpentUsd).toBeCloseTo(spentBefore, 10);
    // Stored as JSON and taken up by a fresh model client, as another process would.
    const stored = JSON.parse(JSON.stringify(paused.state)) as RunState;
    const run2 = async (state: RunState) => {
      let calls = 0;
      const model = new ScriptedModel((): ScriptedTurn => {
        calls++;
        return echoForever;
      });
      const outcome = await resume(
        spender,
        state,
        { [paused.pending[0]!.callId]: { kind: 'approve' } },
        {
          model,
          tools,
        },
      );
      if (outcome.status !== 'finished') throw new Error('expected the end');
      return { calls, result: outcome.result };
    };
    const resumed = await run2(stored);
    expect(resumed.result.terminate_reason).toBe('MAX_COST');
    // Only what was left: the whole cap would allow about 7 calls, the remainder about 1.
    expect(resumed.calls).toBeLessThanOrEqual(Math.ceil((cap - spentBefore) / CALL_USD) + 1);
    expect(resumed.result.cost_usd).toBeLessThanOrEqual(cap + CALL_USD);
    // A state stored before the field existed resumes from the run's recorded cost instead.
    const old = structuredClone(stored);
    delete old.costSpentUsd;
    expect((await run2(old)).calls).toBe(resumed.calls);
  });
});
