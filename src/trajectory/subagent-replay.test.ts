import { describe, expect, it } from 'vitest';
import type { AgentEntry, AgentLookup } from '../contracts/agent.js';
import type { CadreEvent } from '../events/types.js';
import { ScriptedModel } from '../model/scripted-model.js';
import type { ModelRequest } from '../model/types.js';
import type { AgentDefinition } from '../definition/types.js';
import { comparableEvents } from './comparable-events.js';
import { replayTrajectory } from './replay.js';
import { runRecorded } from './run-recorded.js';
import { countingTools } from './testing/test-support.js';

const reader: AgentDefinition = {
  name: 'reader',
  description: 'Reads a file',
  inputConfig: { inputs: { file: { type: 'string', required: true, description: 'Which file' } } },
  promptConfig: { systemPrompt: 'ROLE:reader', query: 'Read ${file}' },
  toolConfig: { tools: ['echo'] },
};
const router: AgentDefinition = {
  name: 'router',
  description: 'Routes',
  promptConfig: { systemPrompt: 'ROLE:router' },
  toolConfig: { tools: ['reader'] },
};
const agents: AgentLookup = {
  get: (name): AgentEntry | undefined =>
    name === 'reader' ? { kind: 'definition', definition: reader } : undefined,
  names: () => ['reader'],
};
const role = (r: ModelRequest): string =>
  r.systemInstruction?.includes('ROLE:reader') ? 'reader' : 'router';
const answered = (r: ModelRequest): boolean =>
  r.messages.at(-1)?.parts.some((p) => p.kind === 'function_response') ?? false;

describe('recording and replaying a run with a subagent (scripted model behaviour)', () => {
  it('replays the child through the real executor from the same trajectory, with no divergence', async () => {
    const model = new ScriptedModel((request) => {
      if (role(request) === 'reader')
        return answered(request)
          ? { parts: [{ text: 'it says hi' }] }
          : { parts: [{ functionCall: { name: 'echo', args: { text: 'hi' } } }] };
      return answered(request)
        ? { parts: [{ text: 'The reader says hi.' }] }
        : { parts: [{ functionCall: { name: 'reader', args: { file: 'a.txt' } } }] };
    });
    const recorded = countingTools();
    const events: CadreEvent[] = [];
    const { result, trajectory } = await runRecorded(router, {
      model,
      tools: recorded.tools,
      agents,
      inputs: { prompt: 'what is in a.txt?' },
      onEvent: (e) => events.push(e),
    });
    expect(result.final_message).toBe('The reader says hi.');
    expect(trajectory.model_steps).toHaveLength(4);
    expect(trajectory.tool_steps.map((s) => [s.tool, s.path])).toEqual([
      ['echo', ['router', 'reader']],
    ]);

    const real = countingTools();
    const replayed: CadreEvent[] = [];
    const replay = await replayTrajectory(trajectory, {
      tools: real.tools,
      agents,
      onEvent: (e) => replayed.push(e),
    });
    expect(replay.report.divergences).toEqual([]);
    expect(replay.result.final_message).toBe('The reader says hi.');
    expect(real.echoed).toEqual([]);
    expect(comparableEvents(replayed)).toEqual(comparableEvents(events));
  });
});
