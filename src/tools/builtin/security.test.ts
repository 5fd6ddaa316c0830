// Every escape route a model could try, against every file tool: all must be
// refused, and nothing outside the workspace may be read, listed or written.
import { readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolExecutionError } from '../../errors/index.js';
import type { Tool } from '../types.js';
import { editFileTool } from './edit-file.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { lsTool } from './ls.js';
import { readFileTool } from './read-file.js';
import { makeWorkspace, type TestWorkspace } from './testing/test-support.js';
import { writeFileTool } from './write-file.js';

const SECRET = 'TOPSECRET-42';
const REFUSAL = /outside the workspace root|symbolic link/;

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
  await ws.write({ 'inside.txt': 'harmless\n' });
  await writeFile(path.join(ws.outside, 'secret.txt'), `${SECRET}\n`);
  // Symlinks inside the workspace that lead out: to /etc, to a directory, to a file, and dangling.
  await symlink('/etc', path.join(ws.root, 'etc-link'));
  await symlink(ws.outside, path.join(ws.root, 'out-dir'));
  await symlink(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'secret-link'));
  await symlink(path.join(ws.outside, 'planted.txt'), path.join(ws.root, 'dangling-link'));
});
afterEach(() => ws.cleanup());

// Writes aim at the temp `outside` dir, never /etc: tests may run as root, and a
// regression must not damage the host.
/** `{outside}` in an argument stands for the absolute path of the directory outside the workspace. */
type Case = [label: string, tool: Tool, args: Record<string, unknown>];

const cases: Case[] = [
  ['read_file ../x', readFileTool, { path: '../outside/secret.txt' }],
  ['read_file /etc/passwd', readFileTool, { path: '/etc/passwd' }],
  ['read_file absolute path outside', readFileTool, { path: '{outside}/secret.txt' }],
  ['read_file through a symlink to /etc', readFileTool, { path: 'etc-link/passwd' }],
  ['read_file through a symlinked parent dir', readFileTool, { path: 'out-dir/secret.txt' }],
  ['read_file a symlinked file outside', readFileTool, { path: 'secret-link' }],
  ['ls ..', lsTool, { path: '..' }],
  ['ls /etc', lsTool, { path: '/etc' }],
  ['ls a symlink to /etc', lsTool, { path: 'etc-link' }],
  ['ls a symlinked parent dir', lsTool, { path: 'out-dir' }],
  ['grep ../x', grepTool, { pattern: SECRET, path: '../outside' }],
  ['grep /etc/passwd', grepTool, { pattern: 'root', path: '/etc/passwd' }],
  ['grep a symlinked parent dir', grepTool, { pattern: SECRET, path: 'out-dir' }],
  ['grep a symlinked file', grepTool, { pattern: SECRET, path: 'secret-link' }],
  ['glob with path ..', globTool, { pattern: '*', path: '..' }],
  ['glob with a ../ pattern', globTool, { pattern: '../outside/*' }],
  ['glob an absolute pattern', globTool, { pattern: '/etc/*' }],
  ['glob in a symlink to /etc', globTool, { pattern: '*', path: 'etc-link' }],
  ['write_file ../x', writeFileTool, { path: '../outside/new.txt', content: 'pwned' }],
  [
    'write_file absolute path outside',
    writeFileTool,
    { path: '{outside}/new.txt', content: 'pwned' },
  ],
  [
    'write_file into a symlinked parent dir',
    writeFileTool,
    { path: 'out-dir/new.txt', content: 'pwned' },
  ],
  [
    'write_file into new dirs under an escaping symlink',
    writeFileTool,
    { path: 'out-dir/a/b/new.txt', content: 'pwned' },
  ],
  [
    'write_file over a symlinked file outside',
    writeFileTool,
    { path: 'secret-link', content: 'pwned' },
  ],
  [
    'write_file through a dangling symlink',
    writeFileTool,
    { path: 'dangling-link', content: 'pwned' },
  ],
  [
    'edit_file absolute path outside',
    editFileTool,
    { path: '{outside}/secret.txt', old_string: SECRET, new_string: 'pwned' },
  ],
  [
    'edit_file ../x',
    editFileTool,
    { path: '../outside/secret.txt', old_string: SECRET, new_string: 'pwned' },
  ],
  [
    'edit_file a symlinked file outside',
    editFileTool,
    { path: 'secret-link', old_string: SECRET, new_string: 'pwned' },
  ],
  [
    'edit_file through a symlinked parent dir',
    editFileTool,
    { path: 'out-dir/secret.txt', old_string: SECRET, new_string: 'pwned' },
  ],
];

function withOutside(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) => [
      key,
      typeof value === 'string' ? value.replace('{outside}', ws.outside) : value,
    ]),
  );
}

describe('workspace confinement', () => {
  it.each(cases)('refuses %s', async (_label, tool, args) => {
    const attempt = tool.execute(withOutside(args), ws.ctx);
    await expect(attempt).rejects.toThrow(ToolExecutionError);
    await expect(attempt).rejects.toThrow(REFUSAL);
    // The refusal names the path as given: one line, no workspace internals the model did not send.
    await attempt.catch((error: Error) => {
      expect(error.message).not.toContain(ws.root);
      expect(error.message).not.toContain('\n');
    });

    expect(await readdir(ws.outside)).toEqual(['secret.txt']);
    expect(await readFile(path.join(ws.outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
  });

  it('does not follow escaping symlinks when searching the whole workspace', async () => {
    expect(await grepTool.execute({ pattern: SECRET }, ws.ctx)).toBe(
      `No matches for /${SECRET}/ in the workspace root.`,
    );
    expect(await globTool.execute({ pattern: '**/*' }, ws.ctx)).toBe('inside.txt');
  });

  it('shows escaping symlinks in ls only as links, without their targets', async () => {
    const listing = String(await lsTool.execute({}, ws.ctx));
    expect(listing).toBe(
      ['dangling-link@', 'etc-link@', 'inside.txt  9 bytes', 'out-dir@', 'secret-link@'].join('\n'),
    );
  });
});
