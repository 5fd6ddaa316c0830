import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatIssue, ValidationError } from '../errors/validation-error.js';
import { loadDefinition } from './load-definition.js';
import { pickYamlFormat } from './yaml-format.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-spec-format-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(name: string, lines: readonly string[]) {
  await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
  await writeFile(path.join(dir, name), lines.join('\n'));
  return loadDefinition(name, { cwd: dir, knownTools: [] });
}

async function errorsOf(name: string, lines: readonly string[]): Promise<string[]> {
  const error = await load(name, lines).catch((e: unknown) => e);
  if (!(error instanceof ValidationError))
    throw new Error(`expected a ValidationError, got ${String(error)}`);
  return error.issues.map(formatIssue);
}

describe('pickYamlFormat', () => {
  test.each([
    [{ name: 'a', instruction: 'i' }, 'x.yaml', 'adk', 'it has "instruction"'],
    [{ name: 'a', output_key: 'k' }, 'x.yaml', 'adk', 'it has "output_key"'],
    [{ name: 'a', model: 'm' }, 'root_agent.yaml', 'adk', 'the file name root_agent.yaml'],
    [{ name: 'a', promptConfig: {} }, 'root_agent.yaml', 'cadre', 'it has "promptConfig"'],
    [{ instruction: 'i', toolConfig: {} }, 'x.yaml', 'cadre', 'it has "toolConfig"'],
    [
      { name: 'a', model: 'm' },
      'x.yaml',
      'cadre',
      'no field in it is ADK-only, such as instruction or agent_class',
    ],
  ])('%o in %s → %s (%s)', (data, file, kind, why) => {
    expect(pickYamlFormat(file, data)).toEqual({ kind, why });
  });
});

describe('fields of the other format say which format was assumed and why', () => {
  test('root_agent.yaml is read as ADK; a misspelt ADK field is an error', async () => {
    expect(
      await errorsOf('typo/root_agent.yaml', [
        'name: helper',
        'model: gemini-2.5-flash',
        'description: helps',
        'instructions: You help.',
      ]),
    ).toEqual([
      'typo/root_agent.yaml:4:1 instructions: read as an ADK agent config (the file name root_agent.yaml); "instructions" is not an ADK agent field; did you mean "instruction"?',
    ]);
  });

  test('root_agent.yaml without ADK-only fields loads as ADK', async () => {
    const { definition } = await load('plain/root_agent.yaml', [
      'name: helper',
      'model: gemini-2.5-flash',
      'description: helps',
    ]);
    expect(definition.source?.foreign).toBe('adk');
    expect(definition.modelConfig?.model).toBe('gemini-2.5-flash');
  });

  test('ADK fields in a Cadre definition: one error each, and no "unknown field" besides', async () => {
    expect(
      await errorsOf('mixed.yaml', [
        'name: helper',
        'description: helps',
        'model: gemini-2.5-flash',
        'instruction: You help.',
        'promptConfig:',
        '  query: hi',
      ]),
    ).toEqual([
      'mixed.yaml:3:1 model: read as a Cadre definition (it has "promptConfig"); "model" is not a Cadre field (Cadre writes modelConfig.model)',
      'mixed.yaml:4:1 instruction: read as a Cadre definition (it has "promptConfig"); "instruction" is an ADK agent config field, not a Cadre one (Cadre writes promptConfig.systemPrompt)',
    ]);
  });

  test('a YAML file with nothing of ADK in it is Cadre, and says so about "model"', async () => {
    expect(
      await errorsOf('claude-ish.yaml', ['name: helper', 'description: helps', 'model: sonnet']),
    ).toEqual([
      'claude-ish.yaml:3:1 model: read as a Cadre definition (no field in it is ADK-only, such as instruction or agent_class); "model" is not a Cadre field (Cadre writes modelConfig.model)',
    ]);
  });

  test('a Cadre field in an ADK config is an error naming the assumption', async () => {
    expect(
      await errorsOf('adk-inputs.yaml', [
        'name: helper',
        'description: helps',
        'instruction: You help.',
        'inputConfig:',
        '  inputs: {topic: {type: string}}',
      ]),
    ).toEqual([
      'adk-inputs.yaml:4:1 inputConfig: read as an ADK agent config (it has "instruction"); "inputConfig" is a Cadre field, not an ADK one (a file with promptConfig, toolConfig, modelConfig or runConfig is read as Cadre)',
    ]);
  });

  test('other fields ADK does not know are ignored with a warning; a custom class keeps its own', async () => {
    const { warnings } = await load('extra.yaml', [
      'name: helper',
      'description: helps',
      'instruction: You help.',
      'entrypoint: my_agent.agent:root_agent',
    ]);
    expect(warnings.map(formatIssue)).toEqual([
      'extra.yaml:4:1 entrypoint: read as an ADK agent config (it has "instruction"); "entrypoint" is not an ADK agent field; ignored',
    ]);
    const custom = await load('custom.yaml', [
      'agent_class: my_package.ReviewAgent',
      'name: helper',
      'description: helps',
      'instruction: You help.',
      'review_depth: 3',
    ]);
    expect(custom.warnings.map((w) => w.message).join('\n')).not.toContain('review_depth');
  });
});
