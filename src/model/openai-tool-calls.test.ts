import { describe, expect, it } from 'vitest';
import { INVALID_JSON_ARGS_KEY, parseArgs, ToolCallAssembler } from './openai-tool-calls.js';

const ids = (): (() => string) => {
  let n = 0;
  return () => `call_gen_${++n}`;
};

describe('ToolCallAssembler', () => {
  it('joins argument fragments per index and returns calls in index order', () => {
    const calls = new ToolCallAssembler(ids());
    calls.add({ index: 1, id: 'b', function: { name: 'ls', arguments: '{"dir":' } });
    calls.add({ index: 0, id: 'a', function: { name: 'read_file', arguments: '{"pa' } });
    calls.add({ index: 0, function: { arguments: 'th":"x"}' } });
    calls.add({ index: 1, function: { arguments: '"."}' } });
    expect(calls.finish()).toEqual([
      { kind: 'function_call', id: 'a', name: 'read_file', args: { path: 'x' } },
      { kind: 'function_call', id: 'b', name: 'ls', args: { dir: '.' } },
    ]);
  });

  it('does not double a name that a server repeats on every fragment', () => {
    const calls = new ToolCallAssembler(ids());
    calls.add({ index: 0, id: 'a', function: { name: 'grep', arguments: '{}' } });
    calls.add({ index: 0, function: { name: 'grep', arguments: '' } });
    expect(calls.finish()[0]?.name).toBe('grep');
  });

  it('generates an id when the server sends none', () => {
    const calls = new ToolCallAssembler(ids());
    calls.add({ index: 0, function: { name: 'ls', arguments: '' } });
    expect(calls.finish()[0]).toMatchObject({ id: 'call_gen_1', args: {} });
  });
});

describe('parseArgs', () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    ['', {}],
    ['  ', {}],
    ['{"a":', { [INVALID_JSON_ARGS_KEY]: '{"a":' }],
    ['[1,2]', { [INVALID_JSON_ARGS_KEY]: '[1,2]' }],
    ['"text"', { [INVALID_JSON_ARGS_KEY]: '"text"' }],
  ])('parses %j as %j', (raw, expected) => {
    expect(parseArgs(raw)).toEqual(expected);
  });
});
