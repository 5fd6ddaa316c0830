import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ValidationError } from '../errors/validation-error.js';
import { loadDefinition } from './load-definition.js';
import { SchemaRegistry } from './schema-registry.js';
import {
  CODEBASE_INVESTIGATOR_YAML,
  REPORT_SCHEMA,
  registry,
} from './testing/spec-example.fixture.js';
import type { AgentDefinition } from './types.js';
import { validateDefinitionObject } from './validate-definition.js';

const withoutSource = ({
  source: _source,
  ...rest
}: AgentDefinition): Omit<AgentDefinition, 'source'> => rest;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-spec-example-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

const expected: Omit<AgentDefinition, 'source'> = {
  name: 'codebase_investigator',
  displayName: 'Codebase Investigator Agent',
  description:
    'The specialized tool for codebase analysis, architectural mapping, and understanding system-wide dependencies.\n',
  inputConfig: {
    inputs: {
      objective: {
        description: "A comprehensive and detailed description of the user's ultimate goal.",
        type: 'string',
        required: true,
      },
    },
  },
  outputConfig: {
    outputName: 'report',
    description: 'The final investigation report as a JSON object.',
    schema: {
      kind: 'json_schema',
      schema: REPORT_SCHEMA,
      origin: 'registry:CodebaseInvestigationReportSchema',
    },
  },
  promptConfig: {
    query:
      'Your task is to do a deep investigation of the codebase to solve for the following user objective:\n<objective>\n${objective}\n</objective>\n',
    systemPrompt: 'You are **Codebase Investigator**, a hyper-specialized AI agent...\n',
  },
  modelConfig: { model: 'gemini-1.5-pro-latest', temp: 0.1, thinkingBudget: -1 },
  toolConfig: { tools: ['ls', 'read_file', 'glob', 'grep'] },
  runConfig: { max_time_minutes: 5, max_turns: 15 },
};

describe('the spec example (codebase_investigator)', () => {
  test('loads from YAML with every field mapped and no warnings', async () => {
    const file = await write('codebase_investigator.yaml', CODEBASE_INVESTIGATOR_YAML);
    const { definition, warnings } = await loadDefinition(file, { schemas: registry() });
    expect(withoutSource(definition)).toEqual(expected);
    expect(definition.source).toEqual({ file, format: 'yaml' });
    expect(warnings).toEqual([]);
  });

  test('snake_case (.proto names) and camelCase give equal definitions', async () => {
    const snake = {
      name: 'codebase_investigator',
      display_name: 'Codebase Investigator Agent',
      description: expected.description,
      input_config: { inputs: expected.inputConfig?.inputs },
      output_config: {
        output_name: 'report',
        description: expected.outputConfig?.description,
        schema: 'CodebaseInvestigationReportSchema',
      },
      prompt_config: {
        query: expected.promptConfig.query,
        system_prompt: expected.promptConfig.systemPrompt,
      },
      model_config: { model: 'gemini-1.5-pro-latest', temperature: 0.1, thinking_budget: -1 },
      tool_config: { tools: ['ls', 'read_file', 'glob', 'grep'] },
      run_config: { max_time_minutes: 5, max_turns: 15 },
    };
    const file = await write('snake.json', JSON.stringify(snake, null, 2));
    const fromJson = await loadDefinition(file, { schemas: registry() });
    expect(withoutSource(fromJson.definition)).toEqual(expected);
    const fromObject = validateDefinitionObject(snake, { schemas: registry() });
    expect(withoutSource(fromObject.definition)).toEqual(expected);
  });

  test('proto3 JSON names (topP, maxTurns, maxTimeMinutes) map to the same fields', () => {
    const { definition } = validateDefinitionObject({
      name: 'a',
      description: 'd',
      modelConfig: { topP: 0.9, thinkingBudget: 0 },
      runConfig: { maxTurns: 3, maxTimeMinutes: 2 },
      onReject: 'fail',
    });
    expect(definition.modelConfig).toEqual({ top_p: 0.9, thinkingBudget: 0 });
    expect(definition.runConfig).toEqual({ max_turns: 3, max_time_minutes: 2 });
    expect(definition.onReject).toBe('fail');
  });

  test('a relative schema file path loads next to the definition', async () => {
    await write('schemas/report.schema.json', JSON.stringify(REPORT_SCHEMA));
    const file = await write(
      'with-file.yaml',
      CODEBASE_INVESTIGATOR_YAML.replace(
        '"CodebaseInvestigationReportSchema"',
        './schemas/report.schema.json',
      ),
    );
    const { definition } = await loadDefinition(file, { cwd: dir });
    expect(definition.outputConfig?.schema).toEqual({
      kind: 'json_schema',
      schema: REPORT_SCHEMA,
      origin: 'file:./schemas/report.schema.json',
    });
  });

  test('a broken schema file is reported against that file, with its line', async () => {
    await write('schemas/broken.yaml', 'type: object\nproperties:\n  summary:\n    type: strin\n');
    const file = await write(
      'broken-ref.yaml',
      CODEBASE_INVESTIGATOR_YAML.replace(
        '"CodebaseInvestigationReportSchema"',
        'schemas/broken.yaml',
      ),
    );
    const error = await loadDefinition(file, { cwd: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const issue = (error as ValidationError).issues[0];
    expect(issue).toMatchObject({
      file: path.join('schemas', 'broken.yaml'),
      line: 4,
      column: 11,
      path: 'properties.summary.type',
    });
    expect(issue?.message).toContain('did you mean "string"?');
  });

  test('a missing schema file is an error at the reference', async () => {
    const file = await write(
      'missing-ref.yaml',
      CODEBASE_INVESTIGATOR_YAML.replace('"CodebaseInvestigationReportSchema"', 'nope.json'),
    );
    await expect(loadDefinition(file, { cwd: dir })).rejects.toThrow(
      /missing-ref\.yaml:18:11 outputConfig\.schema: schema file "nope\.json" not found/,
    );
  });

  test('an unknown schema name is an error naming it and the registered ones', async () => {
    const file = await write('unknown-schema.yaml', CODEBASE_INVESTIGATOR_YAML);
    const schemas = new SchemaRegistry()
      .register('CodebaseInvestigationReport', REPORT_SCHEMA)
      .register('Other', {});
    await expect(loadDefinition(file, { schemas, cwd: dir })).rejects.toThrow(
      'unknown-schema.yaml:18:11 outputConfig.schema: unknown schema "CodebaseInvestigationReportSchema"; did you mean "CodebaseInvestigationReport"?; registered: CodebaseInvestigationReport, Other',
    );
    await expect(loadDefinition(file, { cwd: dir })).rejects.toThrow(/no schemas are registered/);
  });
});
