import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../definition/types.js';
import { preparePrompt } from './prompts.js';

const answer = { kind: 'answer' } as const;

const agent = (
  promptConfig: AgentDefinition['promptConfig'],
  extra: Partial<AgentDefinition> = {},
): AgentDefinition => ({
  name: 'a',
  description: 'd',
  promptConfig,
  toolConfig: { tools: [] },
  ...extra,
});

const textOf = (prompt: ReturnType<typeof preparePrompt>, message = 0): unknown =>
  prompt.messages[message]?.parts[0];

describe('preparePrompt placeholder styles', () => {
  it('ADK {var} reads the run state; inputs win on a clash', () => {
    const definition = agent({
      systemPrompt: 'Review {code} for {prompt}; notes: {notes?}.',
      placeholders: 'braces',
    });
    const prompt = preparePrompt(definition, { prompt: 'the user' }, answer, [], undefined, {
      code: 'x = 1',
      prompt: 'shadowed by the input',
    });
    expect(prompt.systemInstruction).toContain('Review x = 1 for the user; notes: .');
  });

  it('a missing ADK {var} fails before any model call, naming it', () => {
    const definition = agent({ systemPrompt: 'Review {code}.', placeholders: 'braces' });
    expect(() => preparePrompt(definition, { prompt: 'p' }, answer, [], undefined, {})).toThrow(
      'promptConfig.systemPrompt: missing value for {code}; available: prompt',
    );
  });

  it('the style follows the source dialect when the definition names none', () => {
    const claude = agent(
      { systemPrompt: 'cd ${REPO}' },
      { source: { format: 'markdown', foreign: 'claude-code' } },
    );
    expect(preparePrompt(claude, { prompt: 'go' }, answer).systemInstruction).toContain(
      'cd ${REPO}',
    );
    const adk = agent(
      { systemPrompt: 'Hi {who}.' },
      { source: { format: 'yaml', foreign: 'adk' } },
    );
    expect(
      preparePrompt(adk, { prompt: 'go' }, answer, [], undefined, { who: 'Ann' }).systemInstruction,
    ).toContain('Hi Ann.');
  });

  it("the user's message is never templated, whatever the style", () => {
    for (const placeholders of ['dollar', 'braces', 'none'] as const) {
      const prompt = preparePrompt(agent({ placeholders }), { prompt: 'echo ${HOME} {x}' }, answer);
      expect(textOf(prompt)).toEqual({ kind: 'text', text: 'echo ${HOME} {x}' });
    }
  });

  it("Gemini CLI ${query} is the prompt, as Gemini names a Markdown agent's input", () => {
    const gemini = agent(
      { systemPrompt: 'Task: ${query}' },
      { source: { format: 'markdown', foreign: 'gemini-cli' } },
    );
    expect(preparePrompt(gemini, { prompt: 'sum it' }, answer).systemInstruction).toContain(
      'Task: sum it',
    );
  });

  it('fills initial messages and the query in the definition style', () => {
    const definition = agent({
      placeholders: 'braces',
      initialMessages: [{ role: 'user', parts: [{ kind: 'text', text: 'Context: {ctx}' }] }],
      query: 'Do {task} now',
    });
    const prompt = preparePrompt(definition, { task: 't' }, answer, [], undefined, { ctx: 'c' });
    expect(textOf(prompt, 0)).toEqual({ kind: 'text', text: 'Context: c' });
    expect(textOf(prompt, 1)).toEqual({ kind: 'text', text: 'Do t now' });
  });
});
