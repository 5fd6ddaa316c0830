import { describe, expect, it } from 'vitest';
import type { CadreEvent } from '../../events/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { Message, ModelRequest } from '../../model/types.js';
import { echoTool } from '../../testing/test-tools.js';
import { comparableEvents } from '../../trajectory/comparable-events.js';
import { replayTrajectory } from '../../trajectory/replay.js';
import { runRecorded } from '../../trajectory/run-recorded.js';
import { run } from '../run-verbs.js';
import { SUMMARY_INSTRUCTION } from './compact-conversation.js';
import { SUMMARY_MARKER } from './split-conversation.js';

const WINDOW = 10_000;
const PROMPT = { prompt: 'Find the launch code.' };

const researcher = (compaction: AgentDefinition['runConfig']): AgentDefinition => ({
  name: 'researcher',
  description: 'Looks things up, then answers',
  promptConfig: { systemPrompt: 'You look things up.' },
  toolConfig: { tools: ['echo'] },
  runConfig: { max_turns: 8, ...compaction },
});

const look = (text: string, inputTokens: number): ScriptedTurn => ({
  parts: [{ functionCall: { name: 'echo', args: { text } } }],
  usage: { inputTokens, outputTokens: 10 },
});

const SUMMARY_TURN: ScriptedTurn = {
  parts: [{ text: 'Looked up alpha and beta; the launch code is 7-4-1.' }],
  usage: { inputTokens: 600, outputTokens: 40 },
};

/** Three lookups, the third nearing the window; then the summary; then the answer. */
const script = (): ScriptedTurn[] => [
  look('alpha', 2_000),
  look('beta', 5_000),
  look('gamma', 8_500),
  SUMMARY_TURN,
  {
    parts: [{ text: 'The launch code is 7-4-1.' }],
    usage: { inputTokens: 1_200, outputTokens: 12 },
  },
];

const compaction = { compaction: { context_window: WINDOW, keep_turns: 1 } };

const isSummaryRequest = (request: ModelRequest): boolean =>
  request.systemInstruction === SUMMARY_INSTRUCTION;

/** Every call in a request has its answer in the next message, and every answer its call. */
function pairedCalls(messages: readonly Message[]): boolean {
  return messages.every((message, i) => {
    const calls = message.parts.flatMap((p) => (p.kind === 'function_call' ? [p.id] : []));
    const answers = (messages[i + 1]?.parts ?? []).flatMap((p) =>
      p.kind === 'function_response' ? [p.id] : [],
    );
    const ownAnswers = message.parts.flatMap((p) => (p.kind === 'function_response' ? [p.id] : []));
    const previousCalls = (messages[i - 1]?.parts ?? []).flatMap((p) =>
      p.kind === 'function_call' ? [p.id] : [],
    );
    return (
      calls.every((id) => answers.includes(id)) &&
      ownAnswers.every((id) => previousCalls.includes(id))
    );
  });
}

describe('compaction (scripted model reporting large usage)', () => {
  it('summarises earlier turns near the context window; the run goes on and finishes', async () => {
    const model = new ScriptedModel(script());
    const events: CadreEvent[] = [];
    const result = await run(researcher(compaction), {
      model,
      tools: [echoTool()],
      inputs: PROMPT,
      onEvent: (e) => events.push(e),
    });
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.final_message).toBe('The launch code is 7-4-1.');
    const compacted = events.filter((e) => e.type === 'context_compacted');
    expect(compacted).toHaveLength(1);
    expect(compacted[0]).toMatchObject({
      message: 'Earlier conversation summarised',
      data: { scope: 'run', tokensBefore: 8_500, contextWindow: WINDOW },
    });
    const data = compacted[0]!.data as { tokensAfter: number; messagesAfter: number };
    expect(data.tokensAfter).toBeLessThan(8_500);
    // The summary call is one more model call, through the run's client, counted in usage.
    expect(model.requests).toHaveLength(5);
    const summaryRequest = model.requests[3]!;
    expect(isSummaryRequest(summaryRequest)).toBe(true);
    expect(summaryRequest.tools).toEqual([]);
    expect(JSON.stringify(summaryRequest.messages)).toContain('alpha');
    expect(result.usage.inputTokens).toBe(2_000 + 5_000 + 8_500 + 600 + 1_200);
    // The next turn sees the note, the request verbatim, and the newest turn whole.
    const last = model.requests[4]!;
    const first = last.messages[0]!.parts[0];
    expect(first?.kind === 'text' && first.text.startsWith(SUMMARY_MARKER)).toBe(true);
    expect(first?.kind === 'text' && first.text).toContain('7-4-1');
    expect(first?.kind === 'text' && first.text).toContain('Find the launch code.');
    expect(JSON.stringify(last.messages)).toContain('gamma');
    expect(JSON.stringify(last.messages)).not.toContain('"alpha"');
    expect(last.messages).toHaveLength(data.messagesAfter);
    for (const request of model.requests) expect(pairedCalls(request.messages)).toBe(true);
    // The page and the trajectory read the event; the progress line the usage.
    const summaryUsage = events.find((e) => e.type === 'usage' && e.data.purpose === 'compaction');
    expect(summaryUsage?.data).toMatchObject({ inputTokens: 600, outputTokens: 40 });
    const summaryChars = JSON.stringify(summaryRequest.messages).length;
    console.log(
      `compaction: ${String(compacted[0]!.data.tokensBefore)} → about ${data.tokensAfter} tokens; ` +
        `summary request ${summaryChars} characters (about ${Math.ceil(summaryChars / 4)} tokens), scripted usage 600 in + 40 out`,
    );
  });

  it('is off with enabled: false: the same script never summarises', async () => {
    const model = new ScriptedModel(script().filter((turn) => turn !== SUMMARY_TURN));
    const events: CadreEvent[] = [];
    const result = await run(
      researcher({ compaction: { enabled: false, context_window: WINDOW, keep_turns: 1 } }),
      { model, tools: [echoTool()], inputs: PROMPT, onEvent: (e) => events.push(e) },
    );
    expect(result.terminate_reason).toBe('GOAL');
    expect(events.some((e) => e.type === 'context_compacted')).toBe(false);
    expect(model.requests.some(isSummaryRequest)).toBe(false);
  });

  it('trims an oversized tool result in the summarised turns with a marker the summariser sees', async () => {
    const long = 'x'.repeat(12_000);
    const model = new ScriptedModel([
      look(long, 9_000),
      look('short', 9_500),
      SUMMARY_TURN,
      { parts: [{ text: 'Done.' }] },
    ]);
    const result = await run(
      researcher({
        compaction: { context_window: WINDOW, keep_turns: 1, max_tool_result_chars: 500 },
      }),
      { model, tools: [echoTool()], inputs: PROMPT },
    );
    expect(result.terminate_reason).toBe('GOAL');
    const summaryRequest = model.requests.find(isSummaryRequest);
    const text = JSON.stringify(summaryRequest?.messages);
    expect(text).toMatch(/\[trimmed: \d+ more characters of this tool result are not shown\]/);
    expect(text.length).toBeLessThan(3_000);
  });

  it('replays a compacted run: the summary call is a recorded model step', async () => {
    const events: CadreEvent[] = [];
    const { result, trajectory } = await runRecorded(researcher(compaction), {
      model: new ScriptedModel(script()),
      tools: [echoTool()],
      inputs: PROMPT,
      onEvent: (e) => events.push(e),
    });
    expect(trajectory.model_steps).toHaveLength(5);
    expect(trajectory.events.some((e) => e.type === 'context_compacted')).toBe(true);
    const replayed: CadreEvent[] = [];
    const { result: again, report } = await replayTrajectory(trajectory, {
      tools: [echoTool()],
      strict: true,
      onEvent: (e) => replayed.push(e),
    });
    expect(report.divergences).toEqual([]);
    expect(report.model_steps).toMatchObject({ recorded: 5, replayed: 5, live: 0 });
    expect(again.final_message).toBe(result.final_message);
    expect(comparableEvents(replayed)).toEqual(comparableEvents(events));
  });
});

describe('thread history (scripted judge)', () => {
  it('a history of 200 messages still knows a fact from message 3', async () => {
    const history: Message[] = Array.from({ length: 200 }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'model',
      parts: [
        {
          kind: 'text',
          text: i === 2 ? 'My locker number is 4471.' : `Message ${i + 1} about nothing much.`,
        },
      ],
    }));
    // The summariser keeps lines that state a fact; the judge answers only if the fact reached it.
    const model = new ScriptedModel((request) =>
      isSummaryRequest(request)
        ? {
            parts: [
              {
                text: JSON.stringify(request.messages)
                  .split(/\\n/)
                  .filter((line) => line.includes('locker'))
                  .join('\n'),
              },
            ],
          }
        : {
            parts: [
              {
                text: JSON.stringify(request.messages).includes('4471')
                  ? 'Your locker is 4471.'
                  : 'I do not know.',
              },
            ],
          },
    );
    const chat: AgentDefinition = {
      name: 'chat',
      description: 'Chats',
      promptConfig: { systemPrompt: 'You chat.' },
      toolConfig: { tools: [] },
    };
    const events: CadreEvent[] = [];
    const result = await run(chat, {
      model,
      inputs: { prompt: 'What is my locker number?' },
      history,
      historyWindow: 20,
      onEvent: (e) => events.push(e),
    });
    expect(result.final_message).toBe('Your locker is 4471.');
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.messages).toHaveLength(21);
    expect(events.find((e) => e.type === 'context_compacted')?.data).toMatchObject({
      scope: 'history',
      foldedMessages: 180,
    });
  });
});
