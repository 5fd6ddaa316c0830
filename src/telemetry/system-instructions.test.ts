import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../definition/types.js';
import type { CadreEvent } from '../events/types.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { run as runAgent } from '../runtime/run-verbs.js';
import { memoryTelemetry } from './testing/test-support.js';

const agent: AgentDefinition = {
  name: 'helper',
  description: 'Helps.',
  promptConfig: { systemPrompt: 'You are a careful helper. SECRET-RULES.' },
  toolConfig: { tools: [] },
};

async function run(captureContent: boolean) {
  const { telemetry, spans } = memoryTelemetry({ captureContent });
  const events: CadreEvent[] = [];
  await runAgent(agent, {
    model: new ScriptedModel([{ parts: [{ text: 'hello' }] }]),
    inputs: { prompt: 'hi' },
    onEvent: telemetry.observe((event) => events.push(event)),
  });
  return { tree: await spans(), events };
}

describe('gen_ai.system_instructions on chat spans', () => {
  it('with content capture, the chat span carries the system prompt as text parts', async () => {
    const { tree } = await run(true);
    const [chat] = tree.all.filter((span) => span.name.startsWith('chat'));
    const attribute = chat?.attributes['gen_ai.system_instructions'];
    expect(typeof attribute).toBe('string');
    const parts = JSON.parse(String(attribute)) as Array<{ type: string; content: string }>;
    expect(parts).toHaveLength(1);
    expect(parts[0]?.type).toBe('text');
    expect(parts[0]?.content).toContain('You are a careful helper. SECRET-RULES.');
  });

  it('without content capture, no span carries it', async () => {
    const { tree } = await run(false);
    expect(tree.attributeKeys().has('gen_ai.system_instructions')).toBe(false);
  });

  it('the prompt never reaches what serialises events (store, NDJSON, trajectories)', async () => {
    const { events } = await run(true);
    const turn = events.find((event) => event.type === 'turn_started');
    expect(turn).toBeDefined();
    expect(JSON.stringify(events)).not.toContain('SECRET-RULES');
    expect(JSON.stringify(structuredClone(events))).not.toContain('SECRET-RULES');
  });
});
