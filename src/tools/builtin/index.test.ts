import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { builtinToolNames, builtinTools } from './index.js';

describe('builtinTools', () => {
  it('registers the six file tools, the shell, web_fetch and todo_write under unique names', () => {
    expect(builtinToolNames()).toEqual([
      'ls',
      'read_file',
      'glob',
      'grep',
      'write_file',
      'edit_file',
      'shell',
      'web_fetch',
      'todo_write',
    ]);
  });

  it('marks only the writing tools and the shell as side effects needing approval', () => {
    const effects = Object.fromEntries(
      builtinTools.map((tool) => [tool.name, [tool.sideEffect, tool.defaultApproval]]),
    );
    expect(effects).toEqual({
      ls: [false, undefined],
      read_file: [false, undefined],
      glob: [false, undefined],
      grep: [false, undefined],
      write_file: [true, 'require'],
      edit_file: [true, 'require'],
      shell: [true, 'require'],
      web_fetch: [false, undefined],
      todo_write: [false, undefined],
    });
  });

  it.each(builtinTools.map((tool) => [tool.name, tool] as const))(
    '%s has a strict, documented object schema',
    (_name, tool) => {
      const schema = tool.inputSchema as {
        type: string;
        additionalProperties: boolean;
        properties: Record<string, { description?: string }>;
      };
      expect(schema.type).toBe('object');
      expect(schema.additionalProperties).toBe(false);
      for (const property of Object.values(schema.properties)) {
        expect(property.description?.length).toBeGreaterThan(10);
      }
      expect(tool.description.length).toBeGreaterThan(40);

      const validate = new Ajv({ strict: true }).compile(tool.inputSchema);
      expect(validate({ unexpected: 1 })).toBe(false);
    },
  );

  it('validates typical calls with the schemas', () => {
    const ajv = new Ajv();
    const calls: Record<string, [valid: unknown, invalid: unknown]> = {
      ls: [{ path: 'src' }, { path: 3 }],
      read_file: [
        { path: 'a.ts', start_line: 1, end_line: 5 },
        { path: 'a.ts', start_line: 0 },
      ],
      glob: [{ pattern: '**/*.ts' }, {}],
      grep: [{ pattern: 'x', case_insensitive: true }, { pattern: '' }],
      write_file: [{ path: 'a', content: '' }, { path: 'a' }],
      edit_file: [
        { path: 'a', old_string: 'x', new_string: '' },
        { path: 'a', old_string: '', new_string: 'y' },
      ],
      shell: [{ command: 'git status', timeout_seconds: 5 }, { command: '' }],
      web_fetch: [
        { url: 'https://example.com', max_chars: 5_000 },
        { url: 'x', extra: 1 },
      ],
      todo_write: [
        { todos: [{ content: 'Run the tests', status: 'in_progress', activeForm: 'Running' }] },
        { todos: [{ description: 'Ship', status: 'done' }] },
      ],
    };
    for (const tool of builtinTools) {
      const validate = ajv.compile(tool.inputSchema);
      const [valid, invalid] = calls[tool.name] ?? [];
      expect(validate(valid), tool.name).toBe(true);
      expect(validate(invalid), tool.name).toBe(false);
    }
  });
});
