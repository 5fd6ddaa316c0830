import { describe, expect, it } from 'vitest';
import { SubagentConfigs, spawnFieldsFrom } from './subagent-config.js';
import {
  needsResolution,
  parseToolSet,
  resolveToolSet,
  selectTools,
  ToolSets,
  type ResolvedToolSet,
  type ToolSet,
} from './tool-set.js';

const available = ['ls', 'read_file', 'grep', 'write_file', 'bash'];

describe('ToolSet', () => {
  it.each<[string, ToolSet, ResolvedToolSet, string[]]>([
    [
      'Inherit takes the parent as it is',
      ToolSets.inherit,
      ToolSets.except(['bash']) as ResolvedToolSet,
      ['ls', 'read_file', 'grep', 'write_file'],
    ],
    [
      'InheritExcept on Except merges the exclusions (the guide example)',
      ToolSets.inheritExcept(['write_file']),
      ToolSets.except(['bash']) as ResolvedToolSet,
      ['ls', 'read_file', 'grep'],
    ],
    [
      'InheritExcept on Specific removes names',
      ToolSets.inheritExcept(['grep']),
      ToolSets.specific(['ls', 'grep']) as ResolvedToolSet,
      ['ls'],
    ],
    [
      'InheritExcept on All becomes Except',
      ToolSets.inheritExcept(['bash']),
      ToolSets.all as ResolvedToolSet,
      ['ls', 'read_file', 'grep', 'write_file'],
    ],
    [
      'InheritExcept on None stays None',
      ToolSets.inheritExcept(['bash']),
      ToolSets.none as ResolvedToolSet,
      [],
    ],
    [
      'Specific ignores the parent',
      ToolSets.specific(['grep', 'nope']),
      ToolSets.none as ResolvedToolSet,
      ['grep'],
    ],
    ['None is empty', ToolSets.none, ToolSets.all as ResolvedToolSet, []],
  ])('%s', (_name, set, parent, expected) => {
    expect(selectTools(resolveToolSet(set, parent), available)).toEqual(expected);
  });

  it('marks the inherit forms as needing resolution, and resolution removes them', () => {
    expect(needsResolution(ToolSets.inherit)).toBe(true);
    expect(needsResolution(ToolSets.inheritExcept(['x']))).toBe(true);
    expect(needsResolution(resolveToolSet(ToolSets.inherit, ToolSets.all as ResolvedToolSet))).toBe(
      false,
    );
  });

  it.each<[unknown, ToolSet | undefined]>([
    [['a', 'b'], ToolSets.specific(['a', 'b'])],
    ['all', ToolSets.all],
    ['none', ToolSets.none],
    ['inherit', ToolSets.inherit],
    [{ except: ['x'] }, ToolSets.except(['x'])],
    [{ inherit_except: ['x'] }, ToolSets.inheritExcept(['x'])],
    ['everything', undefined],
    [[1, 2], undefined],
  ])('parses %j from a model or a file', (input, expected) => {
    expect(parseToolSet(input)).toEqual(expected);
  });
});

describe('SubagentConfig presets', () => {
  it('default inherits and nests, restrictive has nothing, permissive has all', () => {
    expect(SubagentConfigs.default()).toEqual({ tools: ToolSets.inherit, allowNested: true });
    expect(SubagentConfigs.restrictive()).toEqual({ tools: ToolSets.none, allowNested: false });
    expect(SubagentConfigs.permissive()).toEqual({ tools: ToolSets.all, allowNested: true });
  });

  it('become spawn fields: the own choice of an ephemeral agent, a narrowing for a named one', () => {
    expect(spawnFieldsFrom(SubagentConfigs.restrictive(), true)).toEqual({
      tools: ToolSets.none,
      allowNested: false,
    });
    expect(spawnFieldsFrom(SubagentConfigs.restrictive(), false)).toEqual({
      narrowTo: ToolSets.none,
      allowNested: false,
    });
    expect(spawnFieldsFrom({ ...SubagentConfigs.default(), timeoutMs: 5000 }, false)).toEqual({
      allowNested: true,
      timeoutMs: 5000,
    });
  });
});
