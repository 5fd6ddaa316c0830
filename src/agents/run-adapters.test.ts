import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { McpServerConfig } from '../definition/mcp-server-config.js';
import { runAdapters } from './run-adapters.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-run-adapters-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A stdio "server" that only leaves a mark if it is ever started. */
const marker = (): McpServerConfig => ({
  transport: 'stdio',
  command: 'sh',
  args: ['-c', `touch ${JSON.stringify(path.join(dir, 'started'))}`],
  env: {},
});

test("a run tree's MCP source knows the project's servers before the MCP code loads, and a closed tree starts none", async () => {
  const source = runAdapters.toolSource?.({ servers: { notes: marker() }, env: {}, cwd: dir });
  expect(source?.projectServers()).toEqual(['notes']);
  // Nothing started (the hub has not even loaded): nothing to wait for.
  expect(source?.close()).toBeUndefined();
  const offered = await source?.toolsFor(
    [{ server: 'notes', tool: '*' }],
    undefined,
    () => undefined,
    new AbortController().signal,
  );
  expect(offered?.tools).toEqual([]);
  expect(offered?.warnings.join('\n')).toMatch(/MCP server "notes" could not start/);
  await expect(access(path.join(dir, 'started'))).rejects.toThrow();
});
