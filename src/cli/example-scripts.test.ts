import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const scripts = join(repo, 'examples/scripts');

/** Every string inside a JSON value. */
const stringsOf = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(stringsOf)
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(stringsOf)
        : [];

describe("the example scripts' canned answers (scripted models of the README's demos)", () => {
  it('name functions that exist: each "`name` in src/….ts" is exported from that file', async () => {
    const claims: { name: string; file: string }[] = [];
    for (const entry of await readdir(scripts)) {
      if (!entry.endsWith('.json')) continue;
      const text = stringsOf(JSON.parse(await readFile(join(scripts, entry), 'utf8'))).join('\n');
      for (const match of text.matchAll(/`([A-Za-z_]\w*)` in (src\/[\w/.-]+\.ts)/g))
        claims.push({ name: match[1] ?? '', file: match[2] ?? '' });
    }
    // The helpdesk demo names the loop, a turn and the tool calls.
    expect(claims.map((c) => c.name)).toEqual(
      expect.arrayContaining(['drive', 'takeTurn', 'runToolCalls']),
    );
    for (const { name, file } of claims) {
      const source = await readFile(join(repo, file), 'utf8');
      expect(source, `${name} in ${file}`).toMatch(
        new RegExp(`export (async )?(function|const|class) ${name}\\b`),
      );
    }
  });
});
