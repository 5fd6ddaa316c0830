import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { ScriptedModel, type ScriptedTurn } from '../../../model/scripted-model.js';
import { startAgentsTestServer, type AgentsTestServer } from '../testing/real-test-server.js';
import type { CadreOutcome } from './completion-shapes.js';
import { openAiClient } from './testing/openai-test-server.js';

// What a client asks of the answer's format and sampling, with the real openai SDK: a JSON
// answer comes from an agent whose definition has an output schema, or is refused before a run;
// settings the definition decides are named in the answer, never dropped in silence.
const SCHEMA = {
  type: 'object',
  properties: { severity: { type: 'string', enum: ['low', 'high'] } },
  required: ['severity'],
};
const LABELER = `name: labeler
description: Labels a bug report.
promptConfig:
  systemPrompt: Label it.
outputConfig:
  outputName: label
  schema: ${JSON.stringify(SCHEMA)}
toolConfig:
  tools: []
`;
const GREETER = 'name: greeter\ndescription: Greets you.\npromptConfig:\n  systemPrompt: Greet.\n';

const model = new ScriptedModel((r): ScriptedTurn =>
  r.tools.some((t) => t.name === 'complete_task')
    ? { parts: [{ functionCall: { name: 'complete_task', args: { label: { severity: 'low' } } } }] }
    : { parts: [{ text: 'Hello.' }] },
);

let live: AgentsTestServer<'ann'>;
let client: OpenAI;
beforeAll(async () => {
  live = await startAgentsTestServer({
    prefix: 'cadre-request-settings-',
    agents: { greeter: GREETER, labeler: LABELER },
    users: ['ann'],
    run: { modelClient: model },
  });
  client = openAiClient(live.server.url, live.users.ann.token);
});
afterAll(() => live.close());

const cadreOf = (value: object): CadreOutcome => (value as { cadre: CadreOutcome }).cadre;

describe('/v1 response_format and sampling settings (scripted model, real openai SDK)', () => {
  it('json_schema equal to the agent output schema answers with its JSON', async () => {
    const answer = await client.chat.completions.create({
      model: 'labeler',
      messages: [{ role: 'user', content: 'The app crashes on start.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'label', schema: SCHEMA } },
    });
    expect(JSON.parse(answer.choices[0]?.message.content ?? '')).toEqual({ severity: 'low' });
  });

  it('a different schema, or JSON from a text agent, is refused before any run starts', async () => {
    const before = model.requests.length;
    const other = { type: 'object', properties: { title: { type: 'string' } } };
    await expect(
      client.chat.completions.create({
        model: 'labeler',
        messages: [{ role: 'user', content: 'x' }],
        response_format: { type: 'json_schema', json_schema: { name: 'other', schema: other } },
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/differs/) });
    await expect(
      client.responses.create({
        model: 'greeter',
        input: 'hi',
        text: { format: { type: 'json_object' } },
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/body\.text\.format: the agent 'greeter' answers in text/),
    });
    expect(model.requests.length).toBe(before);
  });

  it('sampling settings are named in cadre.ignored and a header, not dropped in silence', async () => {
    const { data, response } = await client.chat.completions
      .create({
        model: 'greeter',
        messages: [{ role: 'user', content: 'hi' }],
        temperature: 0.2,
        max_tokens: 50,
        seed: 7,
      })
      .withResponse();
    expect(cadreOf(data).ignored).toEqual(['temperature', 'max_tokens', 'seed']);
    expect(response.headers.get('x-cadre-ignored')).toBe('temperature,max_tokens,seed');
    const stream = await client.chat.completions.create({
      model: 'greeter',
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0.2,
      stream: true,
    });
    const streamedCadre: CadreOutcome[] = [];
    for await (const chunk of stream)
      if ('cadre' in chunk) streamedCadre.push((chunk as { cadre: CadreOutcome }).cadre);
    expect(streamedCadre.at(-1)?.ignored).toEqual(['temperature']);
    const plain = await client.responses.create({ model: 'greeter', input: 'hi' });
    expect(cadreOf(plain).ignored).toBeUndefined();
    const tuned = await client.responses.create({ model: 'greeter', input: 'hi', top_p: 0.5 });
    expect(cadreOf(tuned).ignored).toEqual(['top_p']);
  });
});
