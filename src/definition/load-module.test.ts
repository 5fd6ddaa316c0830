import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as z from 'zod';
import { defineAgent } from './define-agent.js';
import { loadDefinition } from './load-definition.js';
import { validateDefinitionObject } from './validate-definition.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DEFINE_AGENT = path.join(HERE, 'define-agent.ts');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-spec-module-'));
  // The module imports `zod` like a user's project would; resolve it from this repo.
  await symlink(path.resolve(HERE, '../../node_modules'), path.join(dir, 'node_modules'), 'dir');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeModule(name: string, body: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(
    file,
    `import * as z from 'zod';\nimport { defineAgent } from ${JSON.stringify(DEFINE_AGENT)};\n${body}`,
  );
  return file;
}

const REPORTER = `
const Report = z.object({ summary: z.string(), files: z.array(z.string()) });
export default defineAgent({
  name: 'reporter',
  description: 'Writes a report.',
  outputConfig: { outputName: 'report', schema: Report },
  processOutput: (report) => report.summary + ' (' + report.files.length + ' files)',
  promptConfig: { systemPrompt: 'You report.' },
  toolConfig: { tools: ['read_file'] },
});
`;

describe('TS / JS modules load through jiti', () => {
  test('a defineAgent default export with a Zod schema and processOutput', async () => {
    const file = await writeModule('reporter.ts', REPORTER);
    const { definition, warnings } = await loadDefinition(file);
    expect(warnings).toEqual([]);
    expect(definition).toMatchObject({
      name: 'reporter',
      toolConfig: { tools: ['read_file'] },
      source: { file, format: 'module' },
    });
    const schema = definition.outputConfig?.schema;
    if (schema?.kind !== 'zod') throw new Error(`expected a Zod schema, got ${schema?.kind}`);
    expect(schema.schema.safeParse({ summary: 's', files: ['a'] }).success).toBe(true);
    expect(schema.schema.safeParse({ summary: 1 }).success).toBe(false);
    expect(schema.jsonSchema).toMatchObject({ type: 'object', required: ['summary', 'files'] });
    expect(definition.processOutput?.({ summary: 'done', files: ['a', 'b'] })).toBe(
      'done (2 files)',
    );
  });

  test('a named `agent` export in an .mts module', async () => {
    const file = await writeModule(
      'named.mts',
      `export const agent = defineAgent({ name: 'named', description: 'd' });\n`,
    );
    expect((await loadDefinition(file)).definition.name).toBe('named');
  });

  test('mistakes in a module are validation errors naming the file', async () => {
    const file = await writeModule(
      'bad.ts',
      `export default defineAgent({ name: 'bad', description: 'd', toolConfig: { tools: ['glb'] } });\n`,
    );
    await expect(loadDefinition(file, { cwd: dir })).rejects.toThrow(
      'bad.ts toolConfig.tools.0: unknown tool "glb"; did you mean "glob"?',
    );
  });

  test('a module without a definition export, or one that throws, is a validation error', async () => {
    const empty = await writeModule('empty.ts', 'export const other = 1;\n');
    await expect(loadDefinition(empty, { cwd: dir })).rejects.toThrow(
      /empty\.ts expected `export default defineAgent/,
    );
    const throwing = await writeModule('throws.ts', "throw new Error('boom');\n");
    await expect(loadDefinition(throwing, { cwd: dir })).rejects.toThrow(
      'throws.ts the module failed to load: boom',
    );
  });
});

describe('defineAgent', () => {
  test('types processOutput from the schema and validates directly', () => {
    const agent = defineAgent({
      name: 'typed',
      description: 'd',
      outputConfig: { schema: z.object({ count: z.number() }) },
      processOutput: (output) => `count=${output.count.toFixed(0)}`,
    });
    type Output = Parameters<NonNullable<typeof agent.processOutput>>[0];
    // @ts-expect-error `missing` is not in the schema's type
    const _check = (output: Output) => output.missing;
    const { definition } = validateDefinitionObject(agent);
    expect(definition.processOutput?.({ count: 3 })).toBe('count=3');
  });

  test('processOutput only fits TS definitions', () => {
    expect(() =>
      validateDefinitionObject({ name: 'a', description: 'd', processOutput: 'JSON.stringify' }),
    ).toThrow('processOutput: expected a function (only in TS definitions), got "JSON.stringify"');
  });
});
