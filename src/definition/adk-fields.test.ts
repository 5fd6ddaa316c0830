import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatIssue } from '../errors/validation-error.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { run } from '../agents/run-verbs.js';
import { loadDefinition } from './load-definition.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-adk-fields-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(name: string, lines: readonly string[]) {
  await writeFile(path.join(dir, name), lines.join('\n'));
  return loadDefinition(name, { cwd: dir, knownTools: [] });
}

describe('ADK agent configs: fields Cadre maps, and a warning at the line for the rest', () => {
  test('top_k for an OpenAI model is warned about once, at load; bad top_k / stop_sequences are warnings and ignored', async () => {
    const openai = await load('openai.yaml', [
      'name: writer',
      'description: d',
      'model: openai:gpt-4.1',
      'instruction: Write.',
      'generate_content_config:', // 5
      '  top_k: 20',
      '  stop_sequences: ["END"]',
    ]);
    expect(openai.definition.modelConfig).toMatchObject({ topK: 20, stopSequences: ['END'] });
    expect(openai.warnings.map((w) => `${w.line} ${w.message}`)).toEqual([
      "6 top_k is not sent to openai:gpt-4.1: OpenAI's API has no top_k",
    ]);
    const bad = await load('bad.yaml', [
      'name: writer',
      'description: d',
      'instruction: Write.',
      'generate_content_config:',
      '  topK: 0.5', // 5
      '  stopSequences: "END"',
    ]);
    expect(bad.definition.modelConfig?.topK).toBeUndefined();
    expect(bad.definition.modelConfig?.stopSequences).toBeUndefined();
    expect(bad.warnings.map((w) => `${w.line} ${w.message}`)).toEqual([
      '5 topK must be a positive integer, got 0.5; ignored',
      '6 stopSequences must be a list of non-empty strings, got "END"; ignored',
    ]);
  });

  test('an agent name that is not an identifier is warned about (ADK refuses it)', async () => {
    const { definition, warnings } = await load('dashed.yaml', [
      'name: code-reviewer',
      'description: d',
      'instruction: Review.',
    ]);
    expect(definition.name).toBe('code-reviewer');
    expect(warnings.map(formatIssue)).toEqual([
      'dashed.yaml:1:7 name: "code-reviewer" is not an identifier, which ADK requires of agent names (letters, digits and _); ADK refuses this file, Cadre loads it',
    ]);
  });

  const full = [
    'name: reviewer', // 1
    'description: d',
    'static_instruction: "Reply in {lang} braces, verbatim."',
    'instruction: Review {prompt}.',
    'include_contents: none', // 5
    'disallow_transfer_to_parent: true',
    'disallow_transfer_to_peers: false',
    'before_model_callbacks:',
    '  - name: my_module.log_request',
    'generate_content_config:', // 10
    '  temperature: 0.2',
    '  max_output_tokens: 512',
    '  top_k: 20',
    '  stop_sequences: ["END"]',
    '  safety_settings:', // 15
    '    - category: HARM_CATEGORY_HATE_SPEECH',
    '      threshold: BLOCK_NONE',
    '  thinking_config:',
    '    thinking_budget: 0',
  ];

  test('what maps is kept; what does not is a warning at its own line', async () => {
    const { definition, warnings } = await load('full.yaml', full);
    expect(definition.promptConfig).toMatchObject({
      staticSystemPrompt: 'Reply in {lang} braces, verbatim.',
      systemPrompt: 'Review {prompt}.',
      history: 'none',
    });
    expect(definition.modelConfig).toEqual({
      temp: 0.2,
      maxOutputTokens: 512,
      topK: 20,
      stopSequences: ['END'],
      thinkingBudget: 0,
    });
    expect(warnings.map((w) => `${w.line} ${w.path}: ${w.message}`)).toEqual([
      '7 disallow_transfer_to_peers: disallow_transfer_to_peers: false is ignored: Cadre sub-agents never transfer control; they answer their caller',
      '8 before_model_callbacks: before_model_callbacks is ignored: Cadre does not run Python callbacks',
      "15 generate_content_config.safety_settings: generate_content_config.safety_settings is ignored: Cadre's model clients send no safety settings",
    ]);
  });

  test('a scripted run: static_instruction untemplated first, max_output_tokens sent, include_contents none drops the history', async () => {
    const { definition } = await load('run.yaml', full);
    const model = new ScriptedModel([{ parts: [{ text: 'ok' }] }]);
    const result = await run(definition, {
      model,
      inputs: { prompt: 'the diff' },
      history: [
        { role: 'user', parts: [{ kind: 'text', text: 'earlier question' }] },
        { role: 'model', parts: [{ kind: 'text', text: 'earlier answer' }] },
      ],
    });
    expect(result.terminate_reason).toBe('GOAL');
    const request = model.requests[0];
    expect(
      request?.systemInstruction?.startsWith(
        'Reply in {lang} braces, verbatim.\n\nReview the diff.',
      ),
    ).toBe(true);
    expect(request?.config).toMatchObject({
      temperature: 0.2,
      maxOutputTokens: 512,
      topK: 20,
      stopSequences: ['END'],
      thinkingBudget: 0,
    });
    expect(JSON.stringify(request?.messages)).not.toContain('earlier');
  });
});
