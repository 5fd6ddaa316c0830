import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatIssue, ValidationError } from '../errors/validation-error.js';
import { loadDefinition } from './load-definition.js';
import { validateDefinitionObject } from './validate-definition.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-spec-errors-'));
  await mkdir(path.join(dir, 'agents'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function errorsOf(name: string, text: string): Promise<string[]> {
  await writeFile(path.join(dir, 'agents', name), text);
  const error = await loadDefinition(path.join('agents', name), { cwd: dir }).catch(
    (e: unknown) => e,
  );
  if (!(error instanceof ValidationError))
    throw new Error(`expected a ValidationError, got ${String(error)}`);
  return error.issues.map(formatIssue);
}

const objectErrors = (raw: unknown): string[] => {
  try {
    validateDefinitionObject(raw);
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map(formatIssue);
    throw error;
  }
  return [];
};

describe('validation errors name file, line, column and field', () => {
  test('a YAML file with many mistakes reports every one at its own line:column', async () => {
    const yaml = [
      'name: bad agent',
      'description: Finds things',
      'promptconfig:',
      '  systemPrompt: hi',
      'modelConfig:',
      '  temp: hot',
      'toolConfig:',
      '  tools: [read_file, grepp]',
      'runConfig:',
      '  max_turns: ten',
      '  max_time_minute: 5',
      'onReject: abort',
      'inputConfig:',
      '  inputs:',
      '    objective: {type: strng}',
      '',
    ].join('\n');
    expect(await errorsOf('x.yaml', yaml)).toEqual([
      'agents/x.yaml:1:7 name: name "bad agent" must start with a letter or _ and hold only letters, digits, _ and - (at most 64)',
      'agents/x.yaml:3:1 promptconfig: unknown field "promptconfig"; did you mean "promptConfig"?',
      'agents/x.yaml:6:9 modelConfig.temp: expected a number between 0 and 2, got "hot"',
      'agents/x.yaml:8:22 toolConfig.tools.1: unknown tool "grepp"; did you mean "grep"?',
      'agents/x.yaml:10:14 runConfig.max_turns: expected a positive integer, got "ten"',
      'agents/x.yaml:11:3 runConfig.max_time_minute: unknown field "max_time_minute"; did you mean "max_time_minutes"?',
      'agents/x.yaml:12:11 onReject: expected one of continue, fail, got "abort"',
      'agents/x.yaml:15:23 inputConfig.inputs.objective.type: expected one of string, number, integer, boolean, string[], number[], object, array, got "strng"; did you mean "string"?',
    ]);
  });

  test('a missing required field points at its parent', async () => {
    expect(await errorsOf('missing.yaml', 'name: a\ntoolConfig:\n  tool: [ls]\n')).toEqual([
      'agents/missing.yaml:1:1 description: is required',
      'agents/missing.yaml:2:1 toolConfig.tools: is required',
      'agents/missing.yaml:3:3 toolConfig.tool: unknown field "tool"; did you mean "tools"?',
    ]);
  });

  test('YAML syntax errors are reported with positions and no stack', async () => {
    const lines = await errorsOf('syntax.yaml', 'name: a\ndescription: b\n  bad: indent\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toMatch(/^agents\/syntax\.yaml:[23]:\d+ invalid YAML: [^\n]+$/);
      expect(line).not.toMatch(/at .*\.ts/);
    }
  });

  test('JSON files get positions too, for bad values and for syntax errors', async () => {
    const json =
      '{\n  "name": "a",\n  "description": "b",\n  "runConfig": {\n    "max_turns": "ten"\n  }\n}\n';
    expect(await errorsOf('x.json', json)).toEqual([
      'agents/x.json:5:18 runConfig.max_turns: expected a positive integer, got "ten"',
    ]);
    const [syntax] = await errorsOf('bad.json', '{\n  "name": "a",\n  "description": "b",\n}\n');
    expect(syntax).toMatch(/^agents\/bad\.json:4:1 invalid JSON: /);
  });

  test('an invalid inline JSON Schema is an error inside the schema, with a did-you-mean', async () => {
    const yaml =
      'name: a\ndescription: b\noutputConfig:\n  schema:\n    type: object\n    properties:\n      x:\n        type: strin\n';
    const [line] = await errorsOf('schema.yaml', yaml);
    expect(line).toMatch(
      /^agents\/schema\.yaml:8:15 outputConfig\.schema\.properties\.x\.type: invalid JSON Schema: .*did you mean "string"\?/,
    );
  });

  test('two spellings of one field are an error, not a silent pick', () => {
    expect(
      objectErrors({ name: 'a', description: 'b', runConfig: { max_turns: 3, maxTurns: 4 } }),
    ).toEqual(['runConfig.maxTurns: "max_turns" and "maxTurns" are the same field; keep one']);
    expect(
      objectErrors({ name: 'a', description: 'b', promptConfig: {}, prompt_config: {} }),
    ).toEqual(['prompt_config: "promptConfig" and "prompt_config" are the same field; keep one']);
  });

  test('in-code objects report paths without a file', () => {
    expect(
      objectErrors({ name: 'a', description: 'b', toolConfig: { tools: ['read_fil'] }, extra: 1 }),
    ).toEqual([
      'extra: unknown field "extra"',
      'toolConfig.tools.0: unknown tool "read_fil"; did you mean "read_file"?',
    ]);
    expect(objectErrors('nope')).toEqual(['expected a mapping of definition fields, got "nope"']);
  });

  test('an unknown tool with nothing close lists the available ones', () => {
    expect(
      objectErrors({ name: 'a', description: 'b', toolConfig: { tools: ['Teleport'] } }),
    ).toEqual([
      'toolConfig.tools.0: unknown tool "Teleport"; available: ls, read_file, glob, grep, write_file, edit_file, shell, web_fetch, todo_write',
    ]);
  });

  test('a tool that needs setting up says how', () => {
    expect(
      objectErrors({ name: 'a', description: 'b', toolConfig: { tools: ['WebSearch'] } }),
    ).toEqual([
      'toolConfig.tools.0: unknown tool "WebSearch" (Cadre\'s "web_search") (web_search needs a search provider: set BRAVE_API_KEY)',
    ]);
  });

  test('inputs and inputSchema together, and non-identifier names, are errors', () => {
    expect(
      objectErrors({
        name: 'a',
        description: 'b',
        inputConfig: {
          inputs: { 'bad-name': { type: 'string' } },
          inputSchema: { type: 'object' },
        },
        outputConfig: { outputName: 'my report' },
      }),
    ).toEqual([
      'inputConfig.inputSchema: use either "inputs" or an input JSON Schema, not both',
      'outputConfig.outputName: output name "my report" must be an identifier (letters, digits and _)',
    ]);
  });

  test("strict mode requires the spec's required sections", () => {
    expect(() =>
      validateDefinitionObject({ name: 'a', description: 'b' }, { strict: true }),
    ).toThrow(
      /inputConfig: is required by the agent definition spec \(--strict\)\noutputConfig: is required by the agent definition spec/,
    );
  });

  test('an unsupported extension and a missing file are validation errors', async () => {
    await expect(loadDefinition(path.join(dir, 'a.txt'), { cwd: dir })).rejects.toThrow(
      'a.txt unsupported file type ".txt"',
    );
    await expect(loadDefinition(path.join(dir, 'none.yaml'), { cwd: dir })).rejects.toThrow(
      'none.yaml file not found',
    );
  });
});
