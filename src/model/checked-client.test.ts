import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/cadre-error.js';
import { run } from '../runtime/run-verbs.js';
import { checkedClient } from './checked-client.js';
import { ScriptedModel } from './scripted-model.js';
import { MODEL_SPECIFICATION_VERSION, type ModelClient } from './types.js';

const writer = {
  name: 'writer',
  description: 'w',
  promptConfig: { systemPrompt: 'Write.' },
  toolConfig: { tools: [] },
};

/** A user's client built for a contract this runtime does not speak; it records whether it was asked. */
function futureClient(): ModelClient & { asked: number } {
  const client = {
    specificationVersion: 'cadre-model/2',
    provider: 'future',
    asked: 0,
    async *generate() {
      client.asked++;
      yield { type: 'text' as const, text: 'misread' };
    },
  };
  return client as unknown as ModelClient & { asked: number };
}

describe('a model client names the contract it implements', () => {
  it('every built-in client sets the current version (the scripted model here)', () => {
    expect(new ScriptedModel([]).specificationVersion).toBe(MODEL_SPECIFICATION_VERSION);
    expect(MODEL_SPECIFICATION_VERSION).toBe('cadre-model/1');
  });

  it('a client of another version is refused with a ConfigError naming both', () => {
    expect(() => checkedClient(futureClient())).toThrow(ConfigError);
    expect(() => checkedClient(futureClient())).toThrow(
      'The model client "future" implements "cadre-model/2"; this Cadre speaks cadre-model/1.',
    );
  });

  it('a client without the field is refused, not guessed to speak version 1', () => {
    const scripted = new ScriptedModel([]);
    const unnamed = {
      provider: 'unnamed',
      generate: (request, signal) => scripted.generate(request, signal),
    } as Omit<ModelClient, 'specificationVersion'>;
    expect(() => checkedClient(unnamed as ModelClient)).toThrow(
      `The model client "unnamed" does not say which contract it implements; set specificationVersion: 'cadre-model/1'.`,
    );
  });

  it('a run given such a client, directly or by a resolver, stops before asking it anything', async () => {
    const given = futureClient();
    await expect(run(writer, { model: given, inputs: { prompt: 'hi' } })).rejects.toThrow(
      ConfigError,
    );
    const resolved = futureClient();
    const outcome = await run(writer, {
      resolveModel: (model) => ({ client: resolved, model }),
      inputs: { prompt: 'hi' },
    }).catch((error: unknown) => error);
    expect(String(outcome)).toMatch(/implements "cadre-model\/2"/);
    expect(given.asked + resolved.asked).toBe(0);
  });
});
