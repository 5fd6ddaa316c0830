import { describe, expect, it } from 'vitest';
import { FORMAT_REMINDER, parseActionInput, parseReactStep } from './react-protocol.js';

describe('ReAct text protocol', () => {
  it.each([
    [
      'action with JSON input',
      'Thought: look it up\nAction: read_file\nAction Input: {"path": "a.txt"}',
      { kind: 'action', thought: 'look it up', tool: 'read_file', input: '{"path": "a.txt"}' },
    ],
    [
      'final answer spanning lines',
      'Thought: done\nFinal Answer: line one\nline two',
      { kind: 'final_answer', thought: 'done', answer: 'line one\nline two' },
    ],
    [
      'labels in any case, with markdown bold and a quoted tool',
      '**Thought:** hmm\n**Action:** `grep`\n**Action Input:** {"pattern": "x"}',
      { kind: 'action', thought: 'hmm', tool: 'grep', input: '{"pattern": "x"}' },
    ],
    [
      'an imagined Observation and everything after it is ignored',
      'Thought: t\nAction: ls\nAction Input: {}\nObservation: a.txt\nFinal Answer: a.txt',
      { kind: 'action', thought: 't', tool: 'ls', input: '{}' },
    ],
    [
      'the first decision wins',
      'Thought: t\nFinal Answer: 42\nAction: ls',
      { kind: 'final_answer', thought: 't', answer: '42\nAction: ls' },
    ],
    [
      'JSON on the line after the tool name',
      'Action: ls\n{"path": "src"}',
      { kind: 'action', thought: '', tool: 'ls', input: '{"path": "src"}' },
    ],
    [
      'unlabelled text before the decision is the thought',
      'I need the file list.\nAction: ls',
      { kind: 'action', thought: 'I need the file list.', tool: 'ls', input: '' },
    ],
    [
      'no decision',
      'Thought: maybe',
      { kind: 'malformed', thought: 'maybe', problem: FORMAT_REMINDER },
    ],
    [
      'empty answer',
      'Final Answer:   ',
      { kind: 'malformed', thought: '', problem: 'The Final Answer was empty.' },
    ],
  ])('%s', (_name, text, expected) => {
    expect(parseReactStep(text)).toEqual(expected);
  });

  it.each([
    ['{"a": 1}', { ok: true, args: { a: 1 } }],
    ['```json\n{"a": 1}\n```', { ok: true, args: { a: 1 } }],
    ['', { ok: true, args: {} }],
    ['[1]', { ok: false, problem: "Action Input must be a JSON object of the tool's arguments." }],
  ])('Action Input %j', (input, expected) => {
    expect(parseActionInput(input)).toEqual(expected);
  });

  it('explains invalid JSON', () => {
    expect(parseActionInput('{a: 1}')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/not valid JSON/),
    });
  });
});
