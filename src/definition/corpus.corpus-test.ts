import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import { AGENT_NAME_PATTERN } from './agent-name.js';
import { loadDefinition } from './load-definition.js';
import { DEFAULT_KNOWN_TOOLS } from './tool-names.js';
import type { LoadOptions, LoadResult } from './load-options.js';

/**
 * A folder of real agent files written for Claude Code, Gemini CLI and ADK
 * (`claude-code/`, `gemini-cli/`, `adk/`), kept byte for byte. It lives outside
 * the repository: `CADRE_CORPUS_DIR=… npm run test:corpus` (CI points it at the
 * developers' corpus of 86 files). Without the variable this suite fails: it is
 * never silently skipped.
 */
const CORPUS_DIR = process.env.CADRE_CORPUS_DIR;
if (!CORPUS_DIR)
  throw new Error(
    'Set CADRE_CORPUS_DIR to a folder of agent files (claude-code/, gemini-cli/, adk/).',
  );
const CORPUS = path.resolve(CORPUS_DIR);
/** How many files the folder must hold (default: the developers' corpus). */
const EXPECTED = Number(process.env.CADRE_CORPUS_COUNT ?? 86);
const KINDS = ['claude-code', 'gemini-cli', 'adk'] as const;
const FILES = KINDS.flatMap((kind) =>
  readdirSync(path.join(CORPUS, kind)).map((name) => `${kind}/${name}`),
).sort();

const load = (file: string, options: LoadOptions = {}): Promise<LoadResult> =>
  loadDefinition(path.join(CORPUS, file), { cwd: CORPUS, ...options });

const messages = (warnings: readonly ValidationIssue[]): string[] => warnings.map((w) => w.message);

describe('every corpus file loads', () => {
  test('the corpus is all there', () => {
    expect(FILES).toHaveLength(EXPECTED);
  });

  test.each(FILES)('%s', async (file) => {
    const loaded = await load(file).catch((error: unknown) => error);
    if (loaded instanceof ValidationError && file.startsWith('adk/')) {
      // An ADK workflow copied without its sub-agent files is refused, as ADK refuses it.
      for (const issue of loaded.issues.filter((i) => i.severity === 'error')) {
        expect(issue).toMatchObject({ file, line: expect.any(Number) });
        expect(issue.message).toMatch(/file not found \(|has no sub-agent Cadre can load/);
      }
      return;
    }
    if (loaded instanceof Error) throw loaded;
    const { definition, warnings } = loaded as LoadResult;
    expect(definition.name).toMatch(AGENT_NAME_PATTERN);
    expect(definition.source?.foreign).toEqual(
      file.startsWith('adk/') ? 'adk' : expect.stringMatching(/^(claude-code|gemini-cli)$/),
    );
    expect(definition.toolConfig.tools.every((tool) => DEFAULT_KNOWN_TOOLS.includes(tool))).toBe(
      true,
    );
    for (const warning of warnings) {
      expect(warning).toMatchObject({ severity: 'warning', file });
      expect(warning.line).toBeGreaterThan(0);
    }
  });
});

describe('corpus spot checks', () => {
  test.each([
    [
      'claude-code/VoltAgent__awesome-claude-code-subagents__gdpr-ccpa-compliance.md',
      "Triggers on: 'GDPR'",
    ],
    [
      'claude-code/VoltAgent__awesome-claude-code-subagents__growth-loops.md',
      "Triggers on: 'growth loop'",
    ],
    [
      'claude-code/affaan-m__everything-claude-code__go-reviewer.md',
      'すべてのGo\n\nコード変更に使用してください',
    ],
    ['claude-code/contains-studio__agents__joker.md', '<example>'],
    ['claude-code/contains-studio__agents__test-writer-fixer.md', '<example>'],
    [
      'claude-code/newtechremo__tongpeople_industry_v1__frontend-mobile.md',
      'TongPass worker mobile application',
    ],
  ])(
    '%s: strict YAML rejects it, the line reader keeps the whole description',
    async (file, fragment) => {
      const { definition, warnings } = await load(file);
      expect(definition.description).toContain(fragment);
      expect(messages(warnings).some((m) => m.startsWith('frontmatter is not strict YAML'))).toBe(
        true,
      );
      expect(definition.promptConfig.systemPrompt?.length).toBeGreaterThan(100);
    },
  );

  test('the line reader still parses flow-list tools (go-reviewer) and maps Bash to shell', async () => {
    const { definition, warnings } = await load(
      'claude-code/affaan-m__everything-claude-code__go-reviewer.md',
    );
    expect(definition.name).toBe('go-reviewer');
    expect(definition.toolConfig.tools).toEqual(['read_file', 'grep', 'glob', 'shell']);
    expect(warnings.find((w) => w.message.includes('"Bash"'))).toBeUndefined();
    expect(definition.modelConfig?.model).toBeUndefined();
  });

  test('a comma-string tools list maps Read→read_file, Edit→edit_file, Bash→shell', async () => {
    const { definition, warnings } = await load('claude-code/0xkayne__DYOR__foundation-builder.md');
    expect(definition.toolConfig.tools).toEqual([
      'read_file',
      'write_file',
      'edit_file',
      'shell',
      'glob',
      'grep',
    ]);
    expect(warnings.map((w) => w.path)).toEqual(['model']);
  });

  test('a CRLF file loads with no carriage returns left in its fields', async () => {
    const { definition } = await load(
      'claude-code/OpenScribbler__syllago-kitchen-sink__code-reviewer.md',
    );
    expect(definition.description).toBe('Review code changes for quality and security issues');
    expect(definition.toolConfig.tools).toEqual(['read_file', 'grep', 'glob', 'shell']);
    expect(definition.promptConfig.systemPrompt).not.toContain('\r');
  });

  test('a file with no frontmatter takes its name from the file and is all prompt', async () => {
    const { definition, warnings } = await load(
      'claude-code/contains-studio__agents__growth-hacker.md',
    );
    expect(definition.name).toBe('contains-studio__agents__growth-hacker');
    expect(definition.displayName).toBe('Growth Hacker');
    expect(definition.promptConfig.systemPrompt?.startsWith('# Growth Hacker')).toBe(true);
    expect(definition.toolConfig.tools).toEqual(DEFAULT_KNOWN_TOOLS);
    expect(messages(warnings)).toContain('no frontmatter; the whole file is the system prompt');
  });

  test('an indented frontmatter block loads and its body is dedented', async () => {
    const { definition } = await load('claude-code/0xfurai__claude-code-subagents__sqs-expert.md');
    expect(definition.name).toBe('sqs-expert');
    expect(definition.promptConfig.systemPrompt?.startsWith('## Focus Areas')).toBe(true);
  });

  test('Claude model names and `inherit` fall back to the run default with a warning', async () => {
    const sonnet = await load(
      'claude-code/VoltAgent__awesome-claude-code-subagents__python-pro.md',
    );
    expect(sonnet.definition.modelConfig).toEqual({ model: undefined });
    expect(messages(sonnet.warnings)).toContain(
      'no configured provider serves model "sonnet"; the run\'s default model is used',
    );
    const inherit = await load('claude-code/wshobson__agents__backend-architect.md');
    expect(messages(inherit.warnings)).toContain('model "inherit" means the run\'s default model');
  });

  test('a foreign name that is not a tool name is slugified, keeping the original as displayName', async () => {
    const { definition, warnings } = await load('claude-code/Josh-Archer__agent-setup__devops.md');
    expect(definition).toMatchObject({ name: 'DevOps-Subagent', displayName: 'DevOps Subagent' });
    expect(messages(warnings)).toContain(
      'name "DevOps Subagent" is not usable as a tool name; loaded as "DevOps-Subagent"',
    );
  });

  test('Gemini CLI fields map: temperature, max_turns, timeout_mins, tools ["*"]', async () => {
    const { definition } = await load('gemini-cli/google__site-kit-wp__fixer.md');
    expect(definition.source?.foreign).toBe('gemini-cli');
    expect(definition.modelConfig).toEqual({ temp: 0.3 });
    expect(definition.runConfig).toEqual({ max_turns: 40, max_time_minutes: 20 });
    expect(definition.toolConfig.tools).toEqual(DEFAULT_KNOWN_TOOLS);
  });

  test('Gemini tool names map (replace→edit_file, grep_search→grep, list_directory→ls)', async () => {
    const { definition } = await load('gemini-cli/GoogleCloudPlatform__cxas-scrapi__reviewer.md');
    expect(definition.toolConfig.tools).toEqual([
      'ls',
      'read_file',
      'write_file',
      'glob',
      'grep',
      'edit_file',
    ]);
    expect(definition.modelConfig).toEqual({ model: 'gemini-3-flash-preview', temp: 0.2 });
    expect(definition.runConfig).toEqual({ max_turns: 50 });
  });

  test('MCP names and wildcards are warnings naming them; the agent loads without them', async () => {
    const { definition, warnings } = await load(
      'gemini-cli/davidstanke__gemini-cli-demo__tester.md',
    );
    expect(definition.toolConfig.tools).toEqual(['read_file', 'shell']);
    expect(warnings.find((w) => w.message.includes('mcp_playwright_*'))).toMatchObject({
      path: 'tools.0',
      line: 5,
      column: 5,
    });
  });

  test('an empty tools list grants nothing; an omitted one grants every built-in', async () => {
    expect(
      (await load('claude-code/wshobson__agents__arm-cortex-expert.md')).definition.toolConfig
        .tools,
    ).toEqual([]);
    expect(
      (await load('gemini-cli/google-gemini__gemini-cli__WORKER.md')).definition.toolConfig.tools,
    ).toEqual(DEFAULT_KNOWN_TOOLS);
  });

  test('a caller without the shell drops Bash / run_shell_command with a warning', async () => {
    const knownTools = ['ls', 'read_file', 'glob', 'grep', 'write_file', 'edit_file'];
    const { definition, warnings } = await load(
      'gemini-cli/OpenScribbler__syllago-kitchen-sink__code-reviewer.md',
      { knownTools },
    );
    expect(definition.toolConfig.tools).toEqual(['read_file', 'grep', 'glob']);
    expect(messages(warnings).join('\n')).toMatch(
      /"run_shell_command" \(Cadre's "shell"\) is not available/,
    );
  });

  test('TodoWrite is todo_write', async () => {
    const { definition, warnings } = await load(
      'claude-code/lst97__claude-code-sub-agents__agent-organizer.md',
    );
    expect(definition.toolConfig.tools).toContain('todo_write');
    expect(warnings.find((w) => w.message.includes('TodoWrite'))).toBeUndefined();
  });

  test('Task and Agent are task where the caller has it (the CLI), and say so where not', async () => {
    const cli = { knownTools: [...DEFAULT_KNOWN_TOOLS, 'task'], isKnownAgent: () => false };
    const lead = await load('claude-code/wshobson__agents__team-lead.md', cli);
    expect(lead.definition.toolConfig.tools).toEqual([
      'read_file',
      'glob',
      'grep',
      'shell',
      'task',
    ]);
    const gap = await load('claude-code/insightwavesmith__qa-helpdesk__gap-detector.md', cli);
    expect(gap.definition.toolConfig).toEqual({
      tools: ['read_file', 'glob', 'grep', 'task'],
      patterns: { task: ['Explore'] },
    });
    expect(messages(gap.warnings)).toContain(
      '"Task(Explore)": no agent "Explore" is known (Explore is one of Claude Code\'s own agents), so task cannot start it',
    );
    const library = await load('claude-code/insightwavesmith__qa-helpdesk__code-analyzer.md');
    expect(messages(library.warnings)).toContain(
      'tool "Task" (Cadre\'s "task") is not available (task needs agents to delegate to: run it with `cadre run`, or list "task" in knownTools); the agent loads without it',
    );
  });

  test('an ADK LlmAgent: instruction is the system prompt, model kept, no tools', async () => {
    const { definition, warnings } = await load(
      'adk/ENVOYou__agent-envoyou__BackendReviewerAgent.yaml',
    );
    expect(definition).toMatchObject({
      name: 'BackendReviewerAgent',
      modelConfig: { model: 'gemini-2.5-flash' },
      toolConfig: { tools: [] },
      source: { format: 'yaml', foreign: 'adk' },
    });
    expect(
      definition.promptConfig.systemPrompt?.startsWith('You are a Senior Backend Code Reviewer'),
    ).toBe(true);
    // Its instruction reads state an earlier agent of its workflow would store.
    expect(warnings.map((w) => `${w.line} ${w.path}`)).toEqual(['11 instruction']);
    expect(warnings[0]?.message).toMatch(/placeholder \{generated_backend_code\}/);
  });

  test('an ADK workflow agent whose sub-agent files are missing is refused, naming each path at its line', async () => {
    const error = await load('adk/ENVOYou__agent-envoyou__root.yaml').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues;
    expect(issues.map((w) => `${w.line}:${w.column} ${w.severity} ${w.path}`)).toEqual([
      '2:14 error agent_class',
      '6:18 error sub_agents.0.config_path',
      '7:18 error sub_agents.1.config_path',
      '8:18 error sub_agents.2.config_path',
    ]);
    expect(issues[1]?.message).toContain(
      'could not be loaded: file not found (adk/agent_envoyou/backend_agent/sub_agent/BackendWriterAgent.yaml)',
    );
  });

  test('ADK tool names are warned about at their own line', async () => {
    const { warnings } = await load(
      'adk/nareshsaladi2024__kaggle-5-day-agents__Day1a-helpful_assistant-root_agent.yaml',
    );
    expect(warnings.map((w) => `${w.line} ${w.path} ${w.message}`)).toEqual([
      '14 tools.0.name tool "google_search" (Cadre\'s "web_search") is not available (web_search needs a search provider: set BRAVE_API_KEY); the agent loads without it',
      '15 tools.1.name tool "get_weather_for_city" is not available in Cadre; the agent loads without it',
    ]);
  });
});
