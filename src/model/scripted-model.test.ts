import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors/model-error.js';
import { run } from '../runtime/run-verbs.js';
import { approveTools } from '../contracts/confirmation.js';
import type { AgentDefinition } from '../definition/types.js';
import { defineTool } from '../tools/types.js';
import { ScriptedModel, type ScriptedTurn } from './scripted-model.js';
import type { Message, ModelChunk, ModelRequest } from './types.js';

const request = (...messages: Message[]): ModelRequest => ({
  model: 'scripted',
  messages,
  tools: [],
  config: {},
});
const user = (text: string): Message => ({ role: 'user', parts: [{ kind: 'text', text }] });
const called: Message = {
  role: 'model',
  parts: [{ kind: 'function_call', id: 'c1', name: 'book', args: {} }],
};
const answeredWith = (response: { output: unknown } | { error: string }): Message => ({
  role: 'user',
  parts: [{ kind: 'function_response', id: 'c1', name: 'book', response }],
});

async function textOf(model: ScriptedModel, req: ModelRequest): Promise<string> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of model.generate(req, new AbortController().signal)) chunks.push(chunk);
  return chunks.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/** Answers by the latest tool result, like examples/scripts/assistant-turns.json. */
const reportTurn: ScriptedTurn = {
  branches: [
    { when: { toolResult: 'rejected' }, parts: [{ text: 'Not booked.' }] },
    { when: { toolResult: 'error' }, parts: [{ text: 'Failed: {{toolResult}}' }] },
    { when: { toolResult: 'ok' }, parts: [{ text: 'Booked: {{toolResult}}' }] },
  ],
  parts: [{ text: 'No tool answered.' }],
};

describe('ScriptedModel branches (scripted model responses)', () => {
  it('answers by what the latest tool call returned: ok, error, rejected or nothing', async () => {
    const cases: Array<[Message[], string]> = [
      [[user('book'), called, answeredWith({ output: { uid: 'e1' } })], 'Booked: {"uid":"e1"}'],
      [[user('book'), called, answeredWith({ error: 'disk full' })], 'Failed: disk full'],
      [
        [
          user('book'),
          called,
          answeredWith({ error: 'The user rejected this call to book. Rethink your approach.' }),
        ],
        'Not booked.',
      ],
      [[user('book')], 'No tool answered.'],
    ];
    for (const [messages, expected] of cases)
      expect(await textOf(new ScriptedModel([reportTurn]), request(...messages))).toBe(expected);
  });

  it('a person rejecting the call in a real run takes the rejection branch, never the success one', async () => {
    // Pins the runtime's wording of a rejection, which the `rejected` condition reads.
    let ran = 0;
    const book = defineTool<Record<string, never>>({
      name: 'book',
      description: 'Books a room.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      sideEffect: true,
      execute: () => {
        ran++;
        return Promise.resolve({ booked: true });
      },
    });
    const agent: AgentDefinition = {
      name: 'booker',
      description: 'Books rooms.',
      promptConfig: { systemPrompt: 'Book rooms.' },
      toolConfig: { tools: ['book'] },
    };
    const script = (): ScriptedTurn[] => [
      { parts: [{ functionCall: { name: 'book', args: {} } }] },
      reportTurn,
    ];
    const rejected = await run(agent, {
      model: new ScriptedModel(script()),
      tools: [book],
      inputs: { prompt: 'Book a room' },
      confirm: () => Promise.resolve({ kind: 'reject', feedback: 'Not today' }),
    });
    expect(rejected.content).toBe('Not booked.');
    expect(ran).toBe(0);
    const approved = await run(agent, {
      model: new ScriptedModel(script()),
      tools: [book],
      inputs: { prompt: 'Book a room' },
      confirm: approveTools(['book']),
    });
    expect(approved.content).toBe('Booked: {"booked":true}');
    expect(ran).toBe(1);
  });

  it('answers by what the prompt says: a phrase, or one tagged section inside another', async () => {
    const judge = (): ScriptedModel =>
      new ScriptedModel([
        {
          branches: [
            { when: { promptIncludes: 'NO EXPECTED' }, parts: [{ text: 'PARTIAL' }] },
            { when: { sectionIncludes: ['answer', 'expected'] }, parts: [{ text: 'PASS' }] },
          ],
          parts: [{ text: 'FAIL' }],
        },
      ]);
    const graded = (expected: string, answer: string): Promise<string> =>
      textOf(
        judge(),
        request(user(`<expected>${expected}</expected>\n<answer>\n${answer}\n</answer>`)),
      );
    expect(await graded('resolveInWorkspace', 'It calls  RESOLVEINWORKSPACE first.')).toBe('PASS');
    expect(await graded('edit-file.ts', 'It calls resolveInWorkspace first.')).toBe('FAIL');
    // An empty expected section proves nothing.
    expect(await graded('', 'Anything.')).toBe('FAIL');
    expect(await graded('no expected', 'Anything.')).toBe('PARTIAL');
    // A section that is not there never holds.
    expect(await textOf(judge(), request(user('<answer>resolveInWorkspace</answer>')))).toBe(
      'FAIL',
    );
  });
});

describe('ScriptedModel conversations (scripted model responses)', () => {
  it('a script that runs out fails with a model error naming the file and what to do', async () => {
    const model = new ScriptedModel([{ parts: [{ text: 'one' }] }], { source: 'turns.json' });
    expect(await textOf(model, request(user('hi')))).toBe('one');
    const error = await textOf(model, request(user('again'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe(
      'Scripted model has no turn 2: the script in turns.json has 1, and each conversation ' +
        '(a server thread, a `cadre run`) plays them once. Start a new one, or add turns to the script.',
    );
  });

  it('with resume, a fresh client picks up after the turns the run has already taken', async () => {
    const turns: ScriptedTurn[] = [
      { parts: [{ functionCall: { name: 'book', args: {} } }] },
      { parts: [{ text: 'second' }] },
    ];
    const underWay = request(user('earlier'), called, answeredWith({ output: 'ok' }));
    expect(await textOf(new ScriptedModel(turns, { resume: true }), underWay)).toBe('second');
    // Without it the script starts at turn 1 whatever the request holds (a fork with another script).
    const fresh = new ScriptedModel(turns);
    const chunks: ModelChunk[] = [];
    for await (const c of fresh.generate(underWay, new AbortController().signal)) chunks.push(c);
    expect(chunks[0]).toMatchObject({ type: 'function_call', call: { name: 'book' } });
  });

  it('numbers call ids call_1_1 by default, and makes them unique per client on request', async () => {
    const turns = (): ScriptedTurn[] => [{ parts: [{ functionCall: { name: 'book', args: {} } }] }];
    const idOf = async (model: ScriptedModel): Promise<string | undefined> => {
      for await (const c of model.generate(request(user('go')), new AbortController().signal))
        if (c.type === 'function_call') return c.call.id;
      return undefined;
    };
    expect(await idOf(new ScriptedModel(turns()))).toBe('call_1_1');
    const a = await idOf(new ScriptedModel(turns(), { uniqueCallIds: true }));
    const b = await idOf(new ScriptedModel(turns(), { uniqueCallIds: true }));
    expect(a).toMatch(/^call_[0-9a-f]{8}_1_1$/);
    expect(a).not.toBe(b);
  });
});
