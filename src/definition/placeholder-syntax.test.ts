import { describe, expect, test } from 'vitest';
import { findPlaceholders } from './placeholder-syntax.js';
import { dialectPlaceholders, placeholderInputNames } from './placeholder-style.js';

describe('findPlaceholders', () => {
  test('dollar: ${name} only', () => {
    expect(findPlaceholders('a ${x} {y} ${ z }', 'dollar')).toEqual([
      { kind: 'value', token: '${x}', index: 2, name: 'x', optional: false },
    ]);
  });

  test('braces: ADK names, optional ones and artifacts; nothing else', () => {
    const text = '{a} {b?} {app:c} {artifact.d.txt} {"e": 1} { f } {g.h} {{i}} {artifact.j?}';
    expect(findPlaceholders(text, 'braces')).toEqual([
      { kind: 'value', token: '{a}', index: 0, name: 'a', optional: false },
      { kind: 'value', token: '{b?}', index: 4, name: 'b', optional: true },
      { kind: 'value', token: '{app:c}', index: 9, name: 'app:c', optional: false },
      { kind: 'artifact', token: '{artifact.d.txt}', index: 17, name: 'd.txt', optional: false },
      { kind: 'value', token: '{{i}}', index: 55, name: 'i', optional: false },
      { kind: 'artifact', token: '{artifact.j?}', index: 61, name: 'j', optional: true },
    ]);
  });

  test('none: nothing', () => {
    expect(findPlaceholders('${a} {b}', 'none')).toEqual([]);
  });
});

describe('placeholder styles and names', () => {
  test('each dialect has its own style', () => {
    expect(dialectPlaceholders(undefined)).toBe('dollar');
    expect(dialectPlaceholders('gemini-cli')).toBe('dollar');
    expect(dialectPlaceholders('claude-code')).toBe('none');
    expect(dialectPlaceholders('adk')).toBe('braces');
  });

  test('names: declared inputs, schema properties, or prompt (and query for Gemini CLI)', () => {
    const base = { promptConfig: {} };
    expect(placeholderInputNames(base)).toEqual(['prompt']);
    expect(
      placeholderInputNames({ ...base, source: { format: 'markdown', foreign: 'gemini-cli' } }),
    ).toEqual(['prompt', 'query']);
    expect(
      placeholderInputNames({ ...base, inputConfig: { inputs: { topic: { type: 'string' } } } }),
    ).toEqual(['topic']);
    expect(
      placeholderInputNames({
        ...base,
        inputConfig: { inputSchema: { type: 'object', properties: { a: {}, b: {} } } },
      }),
    ).toEqual(['a', 'b']);
  });
});
