/** Fixtures for trajectory tests: a small agent, scripted model turns, counting tools. */
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import { approveTools } from '../../contracts/confirmation.js';
import type { AgentDefinition } from '../../definition/types.js';
import { echoTool, sendTool } from '../../testing/test-tools.js';
import { runRecorded } from '../run-recorded.js';

export const notifier: AgentDefinition = {
  name: 'notifier',
  description: 'Looks something up, sends a message, reports',
  inputConfig: { inputs: { topic: { type: 'string', required: true, description: 'Topic' } } },
  outputConfig: {
    outputName: 'report',
    description: 'The report',
    schema: {
      kind: 'json_schema',
      schema: {
        type: 'object',
        properties: { summary: { type: 'string' } },
        required: ['summary'],
      },
    },
  },
  promptConfig: {
    systemPrompt: 'You notify people about ${topic}.',
    query: 'Notify ops about ${topic}.',
  },
  toolConfig: { tools: ['echo', 'send'] },
  runConfig: { max_turns: 6 },
};

export const call = (name: string, args: Record<string, unknown>, say?: string): ScriptedTurn => ({
  parts: [...(say ? [{ text: say }] : []), { functionCall: { name, args } }],
  usage: { inputTokens: 10, outputTokens: 5 },
});

/** Scripted model behaviour: look up, send, complete. */
export const notifierScript = (): ScriptedTurn[] => [
  {
    parts: [{ thought: 'Look it up first.' }, ...call('echo', { text: 'disk full' }).parts],
    usage: { inputTokens: 10, outputTokens: 5 },
  },
  call('send', { to: 'ops' }, 'Sending now.'),
  call('complete_task', { report: { summary: 'Told ops about the disk.' } }),
];

/** Records one scripted run of the notifier; the counters show what really executed. */
export async function recordNotifier() {
  const echoed: Array<Record<string, unknown>> = [];
  const sent: Array<Record<string, unknown>> = [];
  const events: CadreEvent[] = [];
  const { result, trajectory } = await runRecorded(notifier, {
    inputs: { topic: 'disks' },
    model: new ScriptedModel(notifierScript()),
    tools: [echoTool(echoed), sendTool(sent)],
    confirm: approveTools(['send']),
    onEvent: (e) => events.push(e),
  });
  return { result, trajectory, events, echoed, sent };
}

/** Counting tools to pass as the "real" tools of a replay. */
export function countingTools() {
  const echoed: Array<Record<string, unknown>> = [];
  const sent: Array<Record<string, unknown>> = [];
  return { echoed, sent, tools: [echoTool(echoed), sendTool(sent)] };
}
