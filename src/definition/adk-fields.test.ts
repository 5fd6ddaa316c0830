import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatIssue } from '../errors/validation-error.js';
import { loadDefinition } from './load-definition.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-adk-fields-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(name: string, lines: readonly string[]) {
  await writeFile(path.join(dir, name), lines.join('\n'));
  return loadDefinition(name, { cwd: dir, knownTools: [] });
}

describe('ADK agent configs: fields Cadre maps, and a warning at the line for the rest', () => {
  test('an agent name that is not an identifier is warned about (ADK refuses it)', async () => {
    const { definition, warnings } = await load('dashed.yaml', [
      'name: code-reviewer',
      'description: d',
      'instruction: Review.',
    ]);
    expect(definition.name).toBe('code-reviewer');
    expect(warnings.map(formatIssue)).toEqual([
      'dashed.yaml:1:7 name: "code-reviewer" is not an identifier, which ADK requires of agent names (letters, digits and _); ADK refuses this file, Cadre loads it',
    ]);
  });
});
