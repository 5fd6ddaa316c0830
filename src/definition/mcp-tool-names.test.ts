import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { mcpToolName } from './mcp-tool-names.js';

test('a long MCP tool name keeps its start and ends with 8 hex of its SHA-256, as before', () => {
  const full = `${'server'.repeat(10)}__${'tool'.repeat(10)}`;
  const name = mcpToolName('server'.repeat(10), 'tool'.repeat(10));
  expect(name).toBe(
    `${full.slice(0, name.length - 9)}_${createHash('sha256').update(full).digest('hex').slice(0, 8)}`,
  );
  expect(name).toBe('serverserverserverserverserverserverserverserverservers_7fa36cbd');
  expect(mcpToolName('files', 'read.me')).toBe('files__read_me');
});
