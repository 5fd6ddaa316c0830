import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../model/types.js';
import type { RunResult } from '../contracts/run-result.js';
import { SchemaValidator } from '../runtime/completion/schema-validator.js';
import { containsScorer } from './scorers/contains.js';
import { exactScorer } from './scorers/exact.js';
import { jsonSchemaScorer } from './scorers/json-schema.js';
import { regexScorer } from './scorers/regex.js';
import { routing } from './scorers/tool-called.js';
import { assistant } from './testing/test-support.js';
import type { EvalRow, Scorer, ScoreResult } from './types.js';

const signal = new AbortController().signal;

function score(scorer: Scorer, expected: unknown, output: unknown): Promise<ScoreResult> {
  const row: EvalRow = { id: 'r', input: 'q', expected, source: 'test' };
  const answer = typeof output === 'string' ? output : JSON.stringify(output);
  const result = {
    run_id: 'x',
    agent: 'a',
    terminate_reason: 'GOAL',
    output,
    final_message: answer,
    emitted_vars: {},
    content: answer,
    response_time_secs: 0,
    traces: [],
    usage: emptyUsage(),
    turns: 1,
  } as unknown as RunResult;
  return scorer.score({ row, result, answer, calledTools: [], definition: assistant }, signal);
}

describe('text and JSON scorers', () => {
  it('exact compares trimmed text, or JSON for structured expectations', async () => {
    expect(await score(exactScorer(), 'Paris', ' Paris\n')).toMatchObject({ score: 1 });
    expect(await score(exactScorer(), 'Paris', 'paris')).toMatchObject({ score: 0 });
    expect(await score(exactScorer(), { a: 1, b: [2] }, { b: [2], a: 1 })).toMatchObject({
      score: 1,
    });
    expect(await score(exactScorer(), { a: 1 }, { a: 2 })).toMatchObject({
      score: 0,
      passed: false,
    });
  });

  it('contains ignores case and spacing, and scores the share of a list found', async () => {
    expect(await score(containsScorer(), 'new  york', 'I love New\nYork!')).toMatchObject({
      score: 1,
    });
    expect(await score(containsScorer(), ['paris', 'rome', 'oslo'], 'Paris or Rome')).toMatchObject(
      {
        score: 2 / 3,
        passed: false,
        detail: 'not found: "oslo"',
      },
    );
  });

  it('regex takes plain patterns and /pattern/flags, and reports a bad pattern as an error', async () => {
    expect(await score(regexScorer(), '\\d+ files', 'found 12 files')).toMatchObject({ score: 1 });
    expect(await score(regexScorer(), '/ERROR/i', 'an error happened')).toMatchObject({ score: 1 });
    expect(await score(regexScorer(), '^ok$', 'not ok')).toMatchObject({ score: 0 });
    expect(await score(regexScorer(), '(', 'x')).toMatchObject({ status: 'error' });
  });

  it('json_schema validates the output, parsing JSON text first', async () => {
    const validator = await SchemaValidator.create();
    const scorer = jsonSchemaScorer(
      {
        kind: 'json_schema',
        schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
      },
      validator,
    );
    expect(await score(scorer, undefined, { n: 3 })).toMatchObject({ score: 1 });
    expect(await score(scorer, undefined, '{"n": 4}')).toMatchObject({ score: 1 });
    expect(await score(scorer, undefined, { n: 'three' })).toMatchObject({
      score: 0,
      detail: expect.stringContaining('n'),
    });
  });

  it('tool_called follows the routing runner: pass, partial, fail', () => {
    expect(routing(['weather'], ['weather'])).toBe('pass');
    expect(routing(['weather'], ['weather', 'calendar'])).toBe('partial');
    expect(routing(['weather'], ['calendar'])).toBe('fail');
    expect(routing(['weather'], [])).toBe('fail');
    expect(routing([], [])).toBe('pass');
    expect(routing(['a', 'b'], ['b', 'a'])).toBe('pass');
  });
});
