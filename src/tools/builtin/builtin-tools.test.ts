import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from '../types.js';
import { builtinTools, deferredTool, fileTools } from './builtin-tools.js';
import { shellSpec, webFetchSpec } from './builtin-tool-specs.js';
import { editFileTool } from './edit-file.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { lsTool } from './ls.js';
import { readFileTool } from './read-file.js';
import { writeFileTool } from './write-file.js';
import { shellTool } from '../shell/shell-tool.js';
import { webFetchTool } from '../web/web-fetch-tool.js';
import { todoWriteTool } from '../todo/todo-tool.js';
import { makeWorkspace, type TestWorkspace } from './testing/test-support.js';

/** The modules the package entry's built-ins load on their first call. */
const REAL: readonly Tool[] = [
  lsTool,
  readFileTool,
  globTool,
  grepTool,
  writeFileTool,
  editFileTool,
  shellTool,
  webFetchTool,
  todoWriteTool,
];

/** Arguments each preview is asked about. */
const ARGS: Record<string, Record<string, unknown>> = {
  ls: { path: 'src' },
  read_file: { path: 'a.ts', start_line: 2, end_line: 9 },
  glob: { pattern: '**/*.ts', path: 'src' },
  grep: { pattern: 'TODO', case_insensitive: true },
  write_file: { path: 'a.txt', content: 'héllo' },
  edit_file: { path: 'a.ts', old_string: 'a\n  b', new_string: 'c', replace_all: true },
  shell: { command: 'git status\nrm -rf /' },
  web_fetch: { url: 'https://example.com/' },
  todo_write: { todos: [{ content: 'Run the tests' }] },
};

const what = (tool: Tool) => ({
  name: tool.name,
  description: tool.description,
  inputSchema: tool.inputSchema,
  aliases: tool.aliases,
  sideEffect: tool.sideEffect,
  defaultApproval: tool.defaultApproval,
  delivery: tool.delivery,
  // `load` is the deferred tool's own: the gate awaits it before a pattern check.
  methods: (['preview', 'outsidePatterns', 'approvalFloor', 'execute'] as const).filter(
    (method) => typeof tool[method] === 'function',
  ),
});

describe('the deferred built-in tools', () => {
  it.each(REAL.map((real, index) => [real.name, real, builtinTools[index]] as const))(
    '%s says what its module says, with the same methods',
    (_name, real, deferred) => {
      expect(deferred).not.toBe(real);
      expect(what(deferred as Tool)).toEqual(what(real));
      expect(deferred?.preview?.(ARGS[real.name] ?? {})).toBe(
        real.preview?.(ARGS[real.name] ?? {}),
      );
    },
  );

  it('offer load only where the gate needs it: for the pattern checks of shell and web_fetch', () => {
    expect(builtinTools.filter((tool) => tool.load).map((tool) => tool.name)).toEqual([
      'shell',
      'web_fetch',
    ]);
  });

  it.each([
    [
      'shell',
      () => deferredTool(shellSpec(), () => Promise.resolve(shellTool), { patterns: true }),
    ],
    [
      'web_fetch',
      () => deferredTool(webFetchSpec, () => Promise.resolve(webFetchTool), { patterns: true }),
    ],
  ] as const)(
    '%s refuses every narrowed call until its check is loaded, then checks as its module does',
    async (name, make) => {
      const tool = make();
      const [inside, outside, patterns] =
        name === 'shell'
          ? [{ command: 'git status' }, { command: 'git status; rm -rf /' }, ['git status:*']]
          : [{ url: 'https://example.com/a' }, { url: 'https://evil.test/' }, ['example.com']];
      // Asked before the gate loaded it, it fails closed: even an allowed call is refused.
      expect(tool.outsidePatterns?.(inside, patterns)).toBeTypeOf('string');
      expect(tool.outsidePatterns?.(outside, patterns)).toBeTypeOf('string');
      await tool.load?.();
      const real = name === 'shell' ? shellTool : webFetchTool;
      expect(tool.outsidePatterns?.(inside, patterns)).toBeUndefined();
      expect(tool.outsidePatterns?.(outside, patterns)).toBe(
        real.outsidePatterns?.(outside, patterns),
      );
      expect(tool.outsidePatterns?.(outside, patterns)).toBeTypeOf('string');
    },
  );

  describe('on their first call', () => {
    let ws: TestWorkspace;
    beforeAll(async () => {
      ws = await makeWorkspace();
      await ws.write({ 'notes.txt': 'one\ntwo\n' });
    });
    afterAll(() => ws.cleanup());

    it('run the real tool, confined to the workspace as it is', async () => {
      const [ls, read] = fileTools;
      expect(await ls?.execute({}, ws.ctx)).toBe(await lsTool.execute({}, ws.ctx));
      expect(await read?.execute({ path: 'notes.txt' }, ws.ctx)).toContain('two');
      expect(await read?.execute({ path: 'notes.txt' }, ws.ctx)).toBe(
        await readFileTool.execute({ path: 'notes.txt' }, ws.ctx),
      );
      await expect(read?.execute({ path: '../outside/x' }, ws.ctx)).rejects.toThrow();
    });
  });
});
