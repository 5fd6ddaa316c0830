import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../definition/types.js';
import type { ToolDeclaration } from '../../model/types.js';
import { defineTool, type Tool } from '../../tools/types.js';
import { toolSetFor, type ToolSets } from './shared-tool-set.js';

const tool = (name: string): Tool =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object' },
    sideEffect: false,
    execute: () => Promise.resolve(name),
  });
const definition = (): AgentDefinition => ({
  name: 'a',
  description: 'An agent.',
  promptConfig: { systemPrompt: 'Be brief.' },
  toolConfig: { tools: ['add'] },
});
const done: ToolDeclaration = { name: 'complete_task', description: 'Done.', parameters: {} };

describe('toolSetFor', () => {
  it('runs of one definition granted the same tools share one registry and declarations', () => {
    const kept: ToolSets = new WeakMap();
    const add = tool('add');
    const agent = definition();
    const first = toolSetFor(agent, [add], [done], new WeakMap(), kept);
    const second = toolSetFor(agent, [add], [done], new WeakMap(), kept);
    expect(second).toBe(first);
    expect(second.declarations.map((d) => d.name)).toEqual(['add', 'complete_task']);
    expect([...second.offered]).toEqual(['add', 'complete_task']);
  });

  it('a different tool object, completion tool or definition gets a set of its own', () => {
    const kept: ToolSets = new WeakMap();
    const agent = definition();
    const first = toolSetFor(agent, [tool('add')], [done], new WeakMap(), kept);
    const otherTool = tool('add');
    const second = toolSetFor(agent, [otherTool], [done], new WeakMap(), kept);
    expect(second).not.toBe(first);
    expect(second.registry.get('add')).toBe(otherTool);
    expect(toolSetFor(agent, [otherTool], [], new WeakMap(), kept).declarations).toHaveLength(1);
    expect(toolSetFor(definition(), [otherTool], [], new WeakMap(), kept)).not.toBe(second);
  });

  it('keeps nothing without a store (MCP tools: their connections end with the run tree)', () => {
    const add = tool('add');
    const agent = definition();
    expect(toolSetFor(agent, [add], [], new WeakMap(), undefined)).not.toBe(
      toolSetFor(agent, [add], [], new WeakMap(), undefined),
    );
  });
});
