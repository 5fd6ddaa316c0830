import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatIssue, ValidationError } from '../errors/validation-error.js';
import { loadDefinition } from './load-definition.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-spec-yaml-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, lines: readonly string[]): Promise<void> {
  await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
  await writeFile(path.join(dir, name), lines.join('\n'));
}

async function errorsOf(name: string, lines: readonly string[]): Promise<string[]> {
  await write(name, lines);
  const error = await loadDefinition(name, { cwd: dir }).catch((e: unknown) => e);
  if (!(error instanceof ValidationError))
    throw new Error(`expected a ValidationError, got ${String(error)}`);
  return error.issues.map(formatIssue);
}

/** A block scalar whose lines are not indented: the parser complains about every one of them. */
const unindentedRules = (key: string): string[] => [
  `${key}: |`,
  'You help.',
  ...Array.from({ length: 30 }, (_, i) => `- Rule ${i + 1}: be nice`),
];

describe('broken YAML: one root-cause error, then stop', () => {
  test('a Cadre definition', async () => {
    const errors = await errorsOf('cadre.yaml', [
      'name: a',
      'description: b',
      'promptConfig:',
      ...unindentedRules('  systemPrompt'),
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^cadre\.yaml:5:1 invalid YAML: /);
  });

  test('an ADK agent config', async () => {
    const errors = await errorsOf('root_agent.yaml', [
      'name: a',
      'description: b',
      ...unindentedRules('instruction'),
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^root_agent\.yaml:4:1 invalid YAML: /);
  });

  test('the first error by position is the one reported', async () => {
    const errors = await errorsOf('two.yaml', [
      'name: a',
      'description: "it is "quoted" here"',
      'toolConfig:',
      '  tools:',
      '    - ls',
      '   - grep',
    ]);
    expect(errors).toEqual([expect.stringMatching(/^two\.yaml:2:\d+ invalid YAML: /)]);
  });

  test('frontmatter strict YAML rejects still loads through the line reader, with one warning', async () => {
    await write('agents/notes.md', [
      '---',
      'name: notes',
      "description: Use it when: the user says 'notes'",
      'tools: Read',
      '---',
      'You take notes.',
    ]);
    const { definition, warnings } = await loadDefinition('agents/notes.md', { cwd: dir });
    expect(definition.description).toBe("Use it when: the user says 'notes'");
    const notes = warnings.filter((w) => w.message.startsWith('frontmatter is not strict YAML'));
    expect(notes).toHaveLength(1);
    expect(notes[0]?.line).toBe(3);
  });
});
