import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { definitionJsonSchema, DEFINITION_SCHEMA_ID } from './definition-json-schema.js';
import { CODEBASE_INVESTIGATOR_YAML } from './testing/spec-example.fixture.js';

const compile = () =>
  new Ajv2020({ allErrors: true, strict: false }).compile(definitionJsonSchema());

describe('definitionJsonSchema', () => {
  test('is a valid draft 2020-12 schema with an id, a title and field descriptions', () => {
    const schema = definitionJsonSchema();
    expect(schema).toMatchObject({
      $id: DEFINITION_SCHEMA_ID,
      title: 'Cadre agent definition',
      type: 'object',
      required: ['name', 'description'],
    });
    const properties = schema.properties as Record<string, { description?: string }>;
    expect(properties.runConfig?.description).toBe('Limits against runaway runs.');
    expect(() => compile()).not.toThrow();
  });

  test('accepts the spec example and its snake_case spelling', () => {
    const validate = compile();
    const example = parse(CODEBASE_INVESTIGATOR_YAML) as Record<string, unknown>;
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    const snake = {
      name: 'a',
      description: 'b',
      run_config: { max_turns: 3 },
      model_config: { temperature: 0.2, top_p: 0.5 },
    };
    expect(validate(snake)).toBe(true);
  });

  test('rejects unknown fields and bad values, as the loader does', () => {
    const validate = compile();
    expect(validate({ name: 'a', description: 'b', promptconfig: {} })).toBe(false);
    expect(validate({ name: 'a', description: 'b', runConfig: { max_turns: 'ten' } })).toBe(false);
    expect(validate({ name: 'a', description: 'b', onReject: 'abort' })).toBe(false);
    expect(validate({ description: 'b' })).toBe(false);
  });

  test('leaves out what only TS definitions can hold', () => {
    const schema = definitionJsonSchema();
    expect(JSON.stringify(schema)).not.toContain('x-cadre-code-only');
    expect(Object.keys(schema.properties as object)).not.toContain('processOutput');
  });
});
