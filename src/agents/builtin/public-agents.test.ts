import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../errors/cadre-error.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import { run } from '../../runtime/run-verbs.js';
import { echoTool } from '../../testing/test-tools.js';
import { DeepResearchAgent, ReactAgent } from './index.js';

describe('the public built-in agent classes (their code loads on the first run)', () => {
  it('still reject a bad configuration at construction, with the same message', () => {
    expect(() => new ReactAgent({ maxIterations: 0, tools: [echoTool(), echoTool()] })).toThrow(
      /maxIterations must be an integer of at least 1; tools named twice: echo/,
    );
    expect(() => new ReactAgent({ maxIterations: undefined })).toThrow(ConfigError);
    expect(() => new DeepResearchAgent({ maxConcurrent: 0, maxSubQueries: 1.5 })).toThrow(
      /maxSubQueries must be an integer of at least 1; maxConcurrent must be an integer/,
    );
  });

  it('run as the agents they stand for', async () => {
    const model = new ScriptedModel([{ parts: [{ text: 'Final Answer: 4' }] }]);
    const result = await run(new ReactAgent({ tools: [echoTool()] }), {
      inputs: { prompt: '2+2?' },
      model,
    });
    expect(result.content).toBe('4');
    expect(model.requests[0]?.systemInstruction).toContain('- echo:');
  });
});
