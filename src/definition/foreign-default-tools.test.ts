import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadDefinition } from './load-definition.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-default-tools-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An install with connectors, a code tool and delegation, as `cadre run` has. */
const KNOWN = [
  'ls',
  'read_file',
  'glob',
  'grep',
  'write_file',
  'edit_file',
  'shell',
  'web_fetch',
  'web_search',
  'todo_write',
  'task',
  'gmail_send',
  'calendar_event_create',
  'lookup_order',
];
const BUILT_INS = KNOWN.slice(0, 10);

async function load(file: string, text: string) {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), text);
  return loadDefinition(path.join(dir, file), {
    cwd: dir,
    home: path.join(dir, 'home'),
    knownTools: KNOWN,
  });
}

describe("no tools field means the original tool's own default set", () => {
  test('Claude Code: its own tools mapped to Cadre, never mail, calendar, code tools or task', async () => {
    const { definition, warnings } = await load(
      '.claude/agents/a.md',
      '---\nname: a\ndescription: d\n---\nYou help.\n',
    );
    expect(definition.toolConfig.tools).toEqual(BUILT_INS);
    expect(warnings).toEqual([]);
  });

  test('Gemini CLI: its built-ins, with `*` the same set; disallowedTools still removes', async () => {
    const omitted = await load('.gemini/agents/g.md', '---\nname: g\ndescription: d\n---\nGo.\n');
    expect(omitted.definition.toolConfig.tools).toEqual(BUILT_INS);
    const star = await load(
      '.gemini/agents/s.md',
      '---\nname: s\ndescription: d\ntools: ["*"]\n---\nGo.\n',
    );
    expect(star.definition.toolConfig.tools).toEqual(BUILT_INS);
    const denied = await load(
      '.claude/agents/d.md',
      '---\nname: d\ndescription: d\ndisallowedTools: Bash, Write\n---\nGo.\n',
    );
    expect(denied.definition.toolConfig.tools).not.toContain('shell');
    expect(denied.definition.toolConfig.tools).not.toContain('write_file');
    expect(denied.definition.toolConfig.tools).not.toContain('gmail_send');
  });

  test('a tool named explicitly is still granted when the install has it', async () => {
    const { definition } = await load(
      '.claude/agents/n.md',
      '---\nname: n\ndescription: d\ntools: Read, lookup_order\n---\nGo.\n',
    );
    expect(definition.toolConfig.tools).toEqual(['read_file', 'lookup_order']);
  });
});
