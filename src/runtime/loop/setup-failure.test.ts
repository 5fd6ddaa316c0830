import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../errors/cadre-error.js';
import { MODEL_SPECIFICATION_VERSION, type ModelClient } from '../../model/types.js';
import { run } from '../run-verbs.js';

/** A provider whose SDK is not installed: its first call throws the install hint. */
const missingSdk: ModelClient = {
  specificationVersion: MODEL_SPECIFICATION_VERSION,
  provider: 'gemini',
  async *generate() {
    throw new ConfigError('Gemini models need @google/genai: npm install @google/genai');
  },
};

describe('a setup problem found mid-run', () => {
  it('ends the run with code "setup" and the message as written, not as an unexpected failure', async () => {
    const result = await run(
      {
        name: 'a',
        description: 'a',
        promptConfig: { systemPrompt: 'x' },
        toolConfig: { tools: [] },
      },
      { model: missingSdk, inputs: { prompt: 'hi' } },
    );
    expect(result.terminate_reason).toBe('ERROR');
    expect(result.error).toEqual({
      code: 'setup',
      message: 'Gemini models need @google/genai: npm install @google/genai',
    });
  });
});
