import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as yaml from 'yaml';
import { formatIssue, ValidationError } from '../errors/validation-error.js';
import { splitFrontmatter } from './frontmatter.js';
import { readFrontmatterLines } from './frontmatter-line-reader.js';
import { loadDefinition } from './load-definition.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-spec-md-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(name: string, text: string) {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return loadDefinition(file, { cwd: dir });
}

describe('splitFrontmatter', () => {
  test('finds the block after leading blank lines and dedents an indented one', () => {
    const split = splitFrontmatter('\n    ---\n    name: a\n    ---\n    # Body\n    text\n');
    expect(split).toMatchObject({
      found: true,
      yamlText: '    name: a',
      yamlStartLine: 3,
      bodyStartLine: 5,
    });
    expect(split.body).toBe('# Body\ntext\n');
  });

  test('no opening or no closing fence means no frontmatter', () => {
    expect(splitFrontmatter('# Title\n---\n').found).toBe(false);
    expect(splitFrontmatter('---\nname: a\n').found).toBe(false);
  });
});

describe('readFrontmatterLines (the fallback for frontmatter strict YAML rejects)', () => {
  test('reads key: rest of line, continuation lines, block scalars, lists and numbers', () => {
    const text = [
      'name: x',
      '# a comment',
      'description: Use it when: things happen',
      'and more here',
      'notes: |',
      '  line one',
      '  line two',
      'tools: ["Read", "Grep"]',
      'max_turns: 5',
      'model: "sonnet"',
    ].join('\n');
    const { data, mapper } = readFrontmatterLines(yaml, text, 1);
    expect(data).toEqual({
      name: 'x',
      description: 'Use it when: things happen\nand more here',
      notes: 'line one\nline two',
      tools: ['Read', 'Grep'],
      max_turns: 5,
      model: 'sonnet',
    });
    expect(mapper.position(['tools'], 'value')).toEqual({ line: 9, column: 8 });
    expect(mapper.position(['description'], 'key')).toEqual({ line: 4, column: 1 });
  });
});

describe('Markdown agents', () => {
  test('CRLF line ends and no final newline load cleanly', async () => {
    const { definition } = await load(
      'crlf.md',
      '---\r\nname: crlf\r\ndescription: Reads.\r\ntools: Read, Grep\r\n---\r\nYou read.\r\nCarefully.',
    );
    expect(definition).toMatchObject({
      name: 'crlf',
      description: 'Reads.',
      toolConfig: { tools: ['read_file', 'grep'] },
      promptConfig: { systemPrompt: 'You read.\nCarefully.' },
      source: { format: 'markdown', foreign: 'claude-code' },
    });
  });

  test("bad values in the frontmatter are errors at their own line, in the author's key names", async () => {
    const error = await load(
      'bad.md',
      '---\nname: bad\ndescription: d\ntemperature: hot\nmax_turns: 0\n---\nbody\n',
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map(formatIssue)).toEqual([
      'bad.md:4:14 temperature: expected a number between 0 and 2, got "hot"',
      'bad.md:5:12 max_turns: expected a positive integer, got 0',
    ]);
  });

  test('disallowedTools are taken away from the granted tools', async () => {
    const { definition } = await load(
      'deny.md',
      '---\nname: deny\ndescription: d\ndisallowedTools: [Write, Edit]\n---\nbody\n',
    );
    expect(definition.toolConfig.tools).toEqual([
      'ls',
      'read_file',
      'glob',
      'grep',
      'shell',
      'web_fetch',
      'todo_write',
    ]);
  });

  test('Cadre fields in a frontmatter (inputConfig, outputConfig, onReject) are honoured', async () => {
    const text =
      '---\nname: cadre-md\ndescription: d\ntools: []\ninputConfig:\n  inputs:\n    topic: {type: string, required: true}\noutputConfig:\n  outputs:\n    summary: The summary.\nonReject: fail\n---\nWrite about it.\n';
    const { definition } = await load('cadre.md', text);
    expect(definition).toMatchObject({
      inputConfig: { inputs: { topic: { type: 'string', required: true } } },
      outputConfig: { outputs: { summary: 'The summary.' } },
      onReject: 'fail',
      toolConfig: { tools: [] },
    });
  });
});
