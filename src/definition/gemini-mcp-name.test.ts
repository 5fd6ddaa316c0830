import { describe, expect, it } from 'vitest';
import { parseGeminiMcpName } from './gemini-mcp-name.js';

describe("parseGeminiMcpName: Gemini CLI's mcp_<server>_<tool>", () => {
  const servers = new Set(['memory', 'my', 'my_notes']);

  it('reads the server from the declared names, the longest that fits', () => {
    expect(parseGeminiMcpName('mcp_memory_read_graph', servers)).toEqual({
      server: 'memory',
      tool: 'read_graph',
    });
    expect(parseGeminiMcpName('mcp_my_notes_add', servers)).toEqual({
      server: 'my_notes',
      tool: 'add',
    });
    expect(parseGeminiMcpName('mcp_my_other', servers)).toEqual({ server: 'my', tool: 'other' });
    expect(parseGeminiMcpName('mcp_memory_*', servers)).toEqual({ server: 'memory', tool: '*' });
  });

  it('is no reference without a declared server, a tool, or in Claude form', () => {
    expect(parseGeminiMcpName('mcp_github_list', servers)).toBeUndefined();
    expect(parseGeminiMcpName('mcp_memory_', servers)).toBeUndefined();
    expect(parseGeminiMcpName('mcp__memory__read_graph', servers)).toBeUndefined();
    expect(parseGeminiMcpName('read_file', servers)).toBeUndefined();
  });
});
