import { describe, expect, it } from 'vitest';
import { TASK_TOOL } from '../runtime/subagents/task-tool.js';
import { TODO_WRITE_TOOL } from '../tools/todo/todo-tool.js';
import {
  DEFAULT_KNOWN_TOOLS,
  canonicalToolName,
  resolveTools,
  type ResolveToolsOptions,
} from './tool-names.js';

const WITH_TASK = [...DEFAULT_KNOWN_TOOLS, TASK_TOOL];
const claude = (extra: Partial<ResolveToolsOptions> = {}): ResolveToolsOptions => ({
  known: WITH_TASK,
  foreign: true,
  dialect: 'claude-code',
  ...extra,
});
const resolve = (names: string[], options: ResolveToolsOptions = claude()) =>
  resolveTools(names, ['tools'], options);
const messages = (names: string[], options?: ResolveToolsOptions): string[] =>
  resolve(names, options).issues.map((issue) => issue.message);

describe('delegation: Claude Code Task and Agent are Cadre task', () => {
  it.each(['Task', 'Agent', 'task', 'agent'])('%s maps to task', (name) => {
    expect(canonicalToolName(name)).toBe(TASK_TOOL);
    expect(resolve([name, 'Read'])).toEqual({
      tools: ['task', 'read_file'],
      patterns: {},
      issues: [],
    });
  });

  it('Agent(type) and Task(type) narrow task to the named agents', () => {
    expect(resolve(['Agent(worker, researcher)', 'Task(code-reviewer)'])).toEqual({
      tools: ['task'],
      patterns: { task: ['worker', 'researcher', 'code-reviewer'] },
      issues: [],
    });
  });

  it('granted whole as well as narrowed, task is whole', () => {
    expect(resolve(['Task(code-reviewer)', 'Agent']).patterns).toEqual({});
    expect(resolve(['Agent(*)']).patterns).toEqual({});
  });

  it('an agent type nobody registered is a warning naming it', () => {
    const known = new Set(['code-reviewer']);
    const options = claude({ isKnownAgent: (name) => known.has(name) });
    expect(resolve(['Task(Explore)', 'Task(code-reviewer)'], options)).toMatchObject({
      tools: ['task'],
      patterns: { task: ['Explore', 'code-reviewer'] },
    });
    expect(messages(['Task(Explore)', 'Agent(tester)'], options)).toEqual([
      '"Task(Explore)": no agent "Explore" is known (Explore is one of Claude Code\'s own agents), so task cannot start it',
      '"Agent(tester)": no agent "tester" is known, so task cannot start it',
    ]);
  });

  it('where task is not known, a foreign file loads without it and says how to get it', () => {
    const options = claude({ known: DEFAULT_KNOWN_TOOLS });
    expect(resolve(['Task', 'Read'], options).tools).toEqual(['read_file']);
    expect(messages(['Agent(worker)'], options)).toEqual([
      'tool "Agent(worker)" (Cadre\'s "task") is not available (task needs agents to delegate to: run it with `cadre run`, or list "task" in knownTools); the agent loads without it',
    ]);
  });

  it("in Cadre's own files an unknown task is an error", () => {
    const issues = resolve(['task'], {
      known: DEFAULT_KNOWN_TOOLS,
      foreign: false,
      dialect: 'cadre',
    }).issues;
    expect(issues).toMatchObject([{ severity: 'error' }]);
  });
});

describe('todo lists: TodoWrite and write_todos are todo_write', () => {
  it.each(['TodoWrite', 'todowrite', 'write_todos', 'todo_write'])(
    '%s maps to todo_write',
    (name) => {
      expect(canonicalToolName(name)).toBe(TODO_WRITE_TOOL);
      expect(resolve([name], claude({ known: DEFAULT_KNOWN_TOOLS }))).toEqual({
        tools: ['todo_write'],
        patterns: {},
        issues: [],
      });
    },
  );

  it('is a default tool', () => {
    expect(DEFAULT_KNOWN_TOOLS).toContain(TODO_WRITE_TOOL);
  });
});

describe('vendor tools Cadre lacks are warnings naming them', () => {
  it.each([
    ['Skill', /"Skill" is not available in Cadre \(Claude Code skills are not loaded/],
    ['Skill(pdf)', /"Skill\(pdf\)" is not available in Cadre \(Claude Code skills/],
    ['NotebookEdit', /"NotebookEdit" is not available in Cadre \(edit_file can change/],
    ['NotebookRead', /"NotebookRead" is not available in Cadre \(read_file reads/],
    ['activate_skill', /"activate_skill" is not available in Cadre \(Gemini CLI skills/],
    ['TeamCreate', /^tool "TeamCreate" is not available in Cadre; the agent loads without it$/],
  ])('%s', (name, message) => {
    const resolved = resolve(['Read', name]);
    expect(resolved.tools).toEqual(['read_file']);
    expect(resolved.issues).toHaveLength(1);
    expect(resolved.issues[0]).toMatchObject({ severity: 'warning', path: ['tools', 1] });
    expect(resolved.issues[0]?.message).toMatch(message);
  });

  it("in Cadre's own files the hint comes with the error", () => {
    const issues = resolve(['NotebookEdit'], {
      known: WITH_TASK,
      foreign: false,
      dialect: 'cadre',
    }).issues;
    expect(issues.map((issue) => issue.message)).toEqual([
      'unknown tool "NotebookEdit" (edit_file can change a notebook\'s JSON text, not cells by id: grant edit_file if that is enough)',
    ]);
  });
});

describe('comma-string tools lists with patterns', () => {
  it('keeps commas inside Agent(a, b) with the pattern', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { loadDefinition } = await import('./load-definition.js');
    const dir = await mkdtemp(join(tmpdir(), 'cadre-commas-'));
    const file = join(dir, 'lead.md');
    await writeFile(
      file,
      '---\nname: lead\ndescription: d\ntools: Read, Agent(worker, researcher), Bash(git:*)\n---\nLead.\n',
    );
    const { definition } = await loadDefinition(file, {
      cwd: dir,
      knownTools: ['read_file', 'shell', 'task'],
      isKnownAgent: (name) => ['worker', 'researcher'].includes(name),
    });
    expect(definition.toolConfig.tools).toEqual(['read_file', 'task', 'shell']);
    expect(definition.toolConfig.patterns).toMatchObject({ shell: ['git:*'] });
  });
});
