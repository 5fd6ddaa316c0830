import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isDefinitionFileName, loadDefinitionsFromDir } from './load-definitions-from-dir.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-spec-dir-'));
  const files: Record<string, string> = {
    'a.yaml': 'name: a\ndescription: first\n',
    'b.md': '---\nname: b\ndescription: second\n---\nPrompt.\n',
    'c.json': '{"name": "c", "description": "third", "runConfig": {"max_turns": -1}}',
    '_draft.yaml': 'name: [broken\n',
    '.hidden.yaml': 'name: [broken\n',
    'notes.txt': 'not an agent',
    'helper.test.ts': 'throw new Error("never loaded")',
    'types.d.ts': 'export {};',
  };
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  await mkdir(path.join(dir, 'nested'));
  await writeFile(path.join(dir, 'nested', 'd.yaml'), 'name: d\ndescription: nested\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadDefinitionsFromDir', () => {
  test('loads every definition file, lists bad ones under failed, skips the rest', async () => {
    const { loaded, failed } = await loadDefinitionsFromDir(dir, { cwd: dir });
    expect(loaded.map((result) => result.definition.name)).toEqual(['a', 'b']);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.file).toBe(path.join(dir, 'c.json'));
    expect(failed[0]?.error.message).toBe(
      'c.json:1:66 runConfig.max_turns: expected a positive integer, got -1',
    );
  });

  test('file-name filter', () => {
    expect(
      ['a.yaml', 'a.yml', 'a.json', 'a.md', 'a.ts', 'a.mts', 'a.js', 'a.mjs'].every(
        isDefinitionFileName,
      ),
    ).toBe(true);
    expect(
      ['_a.yaml', '.a.yaml', 'a.test.ts', 'a.spec.mjs', 'a.d.ts', 'a.d.mts', 'a.txt'].some(
        isDefinitionFileName,
      ),
    ).toBe(false);
  });
});
