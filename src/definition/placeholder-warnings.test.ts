import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatIssue } from '../errors/validation-error.js';
import { loadDefinition } from './load-definition.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-spec-placeholders-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(name: string, lines: readonly string[]) {
  await writeFile(path.join(dir, name), lines.join('\n'));
  return loadDefinition(name, { cwd: dir, knownTools: [] });
}

const warningsOf = async (name: string, lines: readonly string[]): Promise<string[]> =>
  (await load(name, lines)).warnings.map(formatIssue);

describe('cadre validate: placeholders no input can fill, at their own line', () => {
  test('Cadre YAML: ${x} in the system prompt, the query and initial messages', async () => {
    const warnings = await warningsOf('cadre.yaml', [
      'name: cadre',
      'description: d',
      'inputConfig:',
      '  inputs:',
      '    topic: {type: string}',
      'promptConfig:',
      '  systemPrompt: |',
      '    You write about ${topic}.',
      '    For ${audiense}.',
      '  query: Start with ${topik}',
      '  initialMessages:',
      '    - role: user',
      '      content: Earlier, ${other}',
    ]);
    expect(warnings).toEqual([
      'cadre.yaml:9:9 promptConfig.systemPrompt: placeholder ${audiense} names no input; inputs: topic',
      'cadre.yaml:10:21 promptConfig.query: placeholder ${topik} names no input; did you mean "topic"?; inputs: topic',
      'cadre.yaml:13:25 promptConfig.initialMessages.0.content: placeholder ${other} names no input; inputs: topic',
    ]);
  });

  test('snake_case spellings are located too', async () => {
    const warnings = await warningsOf('snake.yaml', [
      'name: snake',
      'description: d',
      'prompt_config:',
      '  system_prompt: Hello ${who}',
    ]);
    expect(warnings).toEqual([
      'snake.yaml:4:24 prompt_config.system_prompt: placeholder ${who} names no input; inputs: prompt',
    ]);
  });

  test('Claude Code: ${REPO} in the body is shell text, not a placeholder', async () => {
    const { definition, warnings } = await load('claude.md', [
      '---',
      'name: claude',
      'description: d',
      '---',
      'Run `cd ${REPO} && git log` and read {file}.',
    ]);
    expect(definition.source?.foreign).toBe('claude-code');
    expect(definition.promptConfig.placeholders).toBe('none');
    expect(warnings).toEqual([]);
  });

  test('Gemini CLI: ${x} is a placeholder; ${query} is its name for the prompt', async () => {
    const { definition, warnings } = await load('gemini.md', [
      '---',
      'name: gemini',
      'description: d',
      'kind: local',
      '---',
      'Research ${query}.',
      '',
      'Focus on ${topic}.',
    ]);
    expect(definition.promptConfig.placeholders).toBe('dollar');
    expect(warnings.map(formatIssue)).toEqual([
      'gemini.md:8:10 promptConfig.systemPrompt: placeholder ${topic} names no input; inputs: prompt, query',
    ]);
  });

  test('Gemini CLI: an input declared in the frontmatter fills its placeholder', async () => {
    const warnings = await warningsOf('gemini-inputs.md', [
      '---',
      'name: gemini_inputs',
      'description: d',
      'kind: local',
      'inputConfig:',
      '  inputs:',
      '    topic: {type: string, required: true}',
      '---',
      'Focus on ${topic}.',
    ]);
    // Only Gemini CLI's own refusal of Cadre's key; no placeholder warning.
    expect(warnings).toEqual([
      'gemini-inputs.md:5:1 inputConfig: Gemini CLI refuses this file: unknown key "inputConfig" (Cadre reads it)',
    ]);
  });

  test('ADK: {var} may come from an earlier agent; {var?} and JSON are fine; a required artifact fails the run', async () => {
    const { definition, warnings } = await load('adk.yaml', [
      'name: reviewer',
      'description: d',
      'instruction: |',
      '  Review this:',
      '  {generated_code}',
      '  Notes: {notes?}. Answer as {"verdict": "ok"} or { x }.',
      '  Report: {artifact.report}',
      '  User: {prompt}',
    ]);
    expect(definition.promptConfig.placeholders).toBe('braces');
    expect(warnings.map(formatIssue)).toEqual([
      'adk.yaml:5:3 instruction: placeholder {generated_code} names no input; unless an earlier agent stores it with output_key, the run fails, as in ADK (or write {generated_code?}); inputs: prompt',
      'adk.yaml:7:11 instruction: {artifact.report} fails the run: Cadre has no ADK artifacts (write {artifact.report?} for an empty value)',
    ]);
  });
});
