import { describe, expect, it } from 'vitest';
import type { AgentInputView } from '../api/wire-types.js';
import { fieldKind, parseInputs } from './input-values.js';

const fields: AgentInputView[] = [
  { name: 'path', type: 'string', required: true, description: 'File' },
  { name: 'lines', type: 'integer', required: false },
  { name: 'ratio', type: 'number', required: false },
  { name: 'deep', type: 'boolean', required: false },
  { name: 'tags', type: 'string[]', required: false },
  { name: 'sizes', type: 'number[]', required: false },
  { name: 'extra', type: 'object', required: false },
];

describe("form values to a run's inputs", () => {
  it('types each field as the agent declared it and leaves empty optional ones out', () => {
    expect(
      parseInputs(fields, {
        path: 'README.md',
        lines: ' 3 ',
        ratio: '',
        deep: true,
        tags: 'docs\n\n  api  \n',
        sizes: '1\n2.5',
        extra: '{"a": [1]}',
      }),
    ).toEqual({
      ok: true,
      inputs: {
        path: 'README.md',
        lines: 3,
        deep: true,
        tags: ['docs', 'api'],
        sizes: [1, 2.5],
        extra: { a: [1] },
      },
    });
  });

  it('reports every problem by field', () => {
    expect(
      parseInputs(fields, { path: '  ', lines: '2.5', ratio: 'many', sizes: '1\nx', extra: '{' }),
    ).toEqual({
      ok: false,
      errors: {
        path: 'is required',
        lines: 'must be a whole number',
        ratio: 'must be a number',
        sizes: '"x" is not a number',
        extra: 'is not valid JSON',
      },
    });
  });

  it('sends an unticked checkbox as false', () => {
    expect(parseInputs([{ name: 'deep', type: 'boolean', required: true }], {})).toEqual({
      ok: true,
      inputs: { deep: false },
    });
  });

  it('picks a control for each spec type', () => {
    expect(['string', 'integer', 'boolean', 'string[]', 'array', 'object'].map(fieldKind)).toEqual([
      'text',
      'integer',
      'boolean',
      'list',
      'list',
      'json',
    ]);
  });
});
