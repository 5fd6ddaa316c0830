import { afterEach, describe, expect, it } from 'vitest';
import type { CadreEvent } from '../events/types.js';
import { run } from '../runtime/run-verbs.js';
import type { AgentDefinition } from '../definition/types.js';
import { startFakeAnthropic } from '../testing/fake-anthropic-server.js';
import type { FakeServer } from '../testing/fake-anthropic-server.js';
import { echoTool } from '../testing/test-tools.js';
import { CLAUDE_ALIASES } from './claude-models.js';
import { resolveModelClient } from './resolve-model.js';

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const helper: AgentDefinition = {
  name: 'helper',
  description: 'Echoes, then answers.',
  promptConfig: { systemPrompt: 'Be brief.' },
  modelConfig: { model: 'sonnet', thinkingBudget: 1024 },
  toolConfig: { tools: ['echo'] },
};

describe('run on Claude through the fake Messages endpoint (scripted responses)', () => {
  it('runs a tool round trip to GOAL: retry, thinking sent back signed, tool_result, cached usage', async () => {
    fake = await startFakeAnthropic({
      failFirst: [{ status: 429, retryAfter: '0' }],
      turns: [
        {
          parts: [
            { thought: 'Echo first.', signature: 'c2lnLWVjaG8=' },
            { text: 'Checking.' },
            { functionCall: { id: 'toolu_echo_1', name: 'echo', args: { text: 'hi' } } },
          ],
          usage: { input: 300, output: 20, thoughts: 8 },
          cache: { write: 1000 },
        },
        {
          parts: [{ text: 'Echoed: hi' }],
          usage: { input: 40, output: 5 },
          cache: { read: 1000 },
        },
      ],
    });
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.baseUrl };
    const echoed: Array<Record<string, unknown>> = [];
    const events: CadreEvent[] = [];
    const result = await run(helper, {
      inputs: { prompt: 'Say hi.' },
      resolveModel: (name) => resolveModelClient(name, env, { retry: { baseDelayMs: 1 } }),
      tools: [echoTool(echoed)],
      onEvent: (event) => events.push(event),
    });

    expect(result.terminate_reason).toBe('GOAL');
    expect(result.final_message).toBe('Echoed: hi');
    expect(echoed).toEqual([{ text: 'hi' }]);
    expect(result.usage).toMatchObject({
      inputTokens: 300 + 1000 + 40 + 1000,
      outputTokens: 25,
      thoughtTokens: 8,
      cachedInputTokens: 1000,
    });
    expect(events.filter((e) => e.type === 'model_retry')).toHaveLength(1);
    expect(events.some((e) => e.type === 'thought_delta')).toBe(true);

    // The failed attempt, the first turn, and the turn after the tool ran.
    expect(fake.requests).toHaveLength(3);
    const first = fake.requests[1]?.body as Record<string, unknown>;
    expect(first).toMatchObject({
      model: CLAUDE_ALIASES['sonnet'],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      system: [{ type: 'text', cache_control: { type: 'ephemeral' } }],
    });
    const tools = first['tools'] as Array<Record<string, unknown>>;
    expect(tools.map((t) => t['name'])).toContain('echo');
    expect(tools.at(-1)).toHaveProperty('cache_control', { type: 'ephemeral' });

    const second = (fake.requests[2]?.body as { messages: Array<Record<string, unknown>> })
      .messages;
    expect(second.at(-2)).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Echo first.', signature: 'c2lnLWVjaG8=' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_echo_1', name: 'echo', input: { text: 'hi' } },
      ],
    });
    expect(second.at(-1)).toMatchObject({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_echo_1',
          content: expect.stringContaining('hi'),
          cache_control: { type: 'ephemeral' },
        },
      ],
    });
  });
});
