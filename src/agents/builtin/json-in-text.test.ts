import { describe, expect, it } from 'vitest';
import { jsonInText, parseSubQueries } from './json-in-text.js';

describe('JSON in model text', () => {
  it.each([
    ['bare', '["a", "b"]', ['a', 'b']],
    ['fenced', 'Here you go:\n```json\n["a", "b"]\n```\nGood luck.', ['a', 'b']],
    ['inside prose', 'The list is ["a", "b"] as requested.', ['a', 'b']],
    ['wrapped in an object', '{"sub_queries": ["a", "b"]}', ['a', 'b']],
    ['objects with a query', '[{"query": "a"}, {"question": "b"}, {"x": 1}]', ['a', 'b']],
    ['blank and repeated entries dropped', '["a", " ", "A", "b", 3]', ['a', 'b']],
    ['capped at max', '["a", "b", "c", "d"]', ['a', 'b', 'c']],
    ['no list at all', 'I cannot split this.', []],
  ])('%s', (_name, text, expected) => {
    expect(parseSubQueries(text, 3)).toEqual(expected);
  });

  it('is undefined when nothing parses', () => {
    expect(jsonInText('{ not json ]')).toBeUndefined();
  });
});
