import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { parsePolicyFile } from '../../policy/policy-file.js';
import { loadDefinition } from '../../definition/load-definition.js';
import { builtinTools } from '../../tools/builtin/index.js';
import { DEFAULT_KNOWN_TOOLS } from '../../definition/tool-names.js';
import type { ConfirmationRequest } from '../../contracts/confirmation.js';
import { run as runDefinition } from '../run-verbs.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-patterns-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lastParts = (r: ModelRequest) => r.messages.at(-1)?.parts ?? [];
/** Scripted: runs one shell command, then answers with the response it got. */
const running = (command: string) =>
  new ScriptedModel((r): ScriptedTurn => {
    const response = lastParts(r).find((p) => p.kind === 'function_response');
    return response && response.kind === 'function_response'
      ? { parts: [{ text: JSON.stringify(response.response) }] }
      : { parts: [{ functionCall: { name: 'shell', args: { command } } }] };
  });

async function claudeAgent(tools: string): Promise<string> {
  const file = path.join(dir, 'git-helper.md');
  await writeFile(
    file,
    `---\nname: git-helper\ndescription: Answers questions about the repository.\ntools: ${tools}\n---\nYou help with git.\n`,
  );
  return file;
}

async function run(file: string, command: string, policyYaml?: string) {
  const { definition, warnings } = await loadDefinition(file, { cwd: dir });
  const asked: ConfirmationRequest[] = [];
  const result = await runDefinition(definition, {
    model: running(command),
    tools: builtinTools,
    workspace: dir,
    inputs: { prompt: 'go' },
    confirm: async (request) => (asked.push(request), { kind: 'approve' }),
    ...(policyYaml ? { policy: { ...parsePolicyFile(policyYaml), sideEffects: 'on' } } : {}),
  });
  return {
    definition,
    warnings,
    asked,
    answer: JSON.parse(result.final_message) as Record<string, unknown>,
  };
}

describe('tool patterns narrow the shell (real processes, scripted model responses)', () => {
  it('Bash(echo:*) in a Claude Code file grants the shell narrowed to echo; an echo call asks, then runs', async () => {
    const file = await claudeAgent('Read, Bash(echo:*)');
    const { definition, asked, answer } = await run(file, 'echo hello');
    expect(definition.toolConfig).toEqual({
      tools: ['read_file', 'shell'],
      patterns: { shell: ['echo:*'] },
    });
    expect(asked.map((a) => a.tool)).toEqual(['shell']);
    expect((answer.output as { stdout: string }).stdout).toBe('hello\n');
  });

  it.each([
    ['another program', 'touch pwned.txt'],
    ['a second command after an allowed one', 'echo hi; touch pwned.txt'],
    ['a command substitution', 'echo $(touch pwned.txt)'],
    ['a redirection into a file', 'echo hi > pwned.txt'],
  ])('%s is refused before any approval and never runs', async (_label, command) => {
    const file = await claudeAgent('Bash(echo:*)');
    const { asked, answer } = await run(file, command);
    expect(asked).toEqual([]);
    expect(String(answer.error)).toMatch(/^Refused: .*(outside the allowed commands|cannot vet)/);
    await expect(
      import('node:fs/promises').then((fs) => fs.access(path.join(dir, 'pwned.txt'))),
    ).rejects.toThrow();
  });

  it("Gemini CLI's run_shell_command(echo) allows every command that starts with echo", async () => {
    const file = path.join(dir, 'gemini-helper.md');
    await writeFile(
      file,
      '---\nname: gemini-helper\ndescription: d\nkind: local\ntools: [run_shell_command(echo)]\n---\nBe brief.\n',
    );
    const { definition, answer } = await run(file, 'echo from gemini');
    expect(definition.toolConfig.patterns).toEqual({ shell: ['echo:*'] });
    expect((answer.output as { stdout: string }).stdout).toBe('from gemini\n');
  });

  it('a policy rule with commands patterns allows matching commands without asking, and only those', async () => {
    const file = await claudeAgent('Bash');
    const policy = `rules:\n  - tool: shell\n    when: { command: { commands: ["echo:*"] } }\n    decision: allow\n    reason: echo is harmless\n`;
    const allowed = await run(file, 'echo quiet', policy);
    expect(allowed.asked).toEqual([]);
    expect((allowed.answer.output as { stdout: string }).stdout).toBe('quiet\n');
    const compound = await run(file, 'echo quiet && echo loud', policy);
    expect(compound.asked).toEqual([]);
    const mixed = await run(file, 'echo quiet; pwd', policy);
    expect(mixed.asked.map((a) => a.tool)).toEqual(['shell']);
  });

  it('a deny rule with commands patterns catches the command hidden after another', async () => {
    const file = await claudeAgent('Bash');
    const policy = `rules:\n  - tool: shell\n    when: { command: { commands: ["rm:*"] } }\n    decision: deny\n    reason: no deleting\n`;
    const { asked, answer } = await run(file, 'echo hi && rm -rf nothing-here', policy);
    expect(asked).toEqual([]);
    expect(String(answer.error)).toContain('no deleting');
  });

  it("an ad-hoc task child inherits the parent's shell with its patterns, not the whole shell", async () => {
    const file = path.join(dir, 'delegator.yaml');
    await writeFile(
      file,
      'name: delegator\ndescription: d\ntoolConfig:\n  tools: ["shell(echo:*)", task]\n',
    );
    const { definition } = await loadDefinition(file, {
      cwd: dir,
      knownTools: [...DEFAULT_KNOWN_TOOLS, 'task'],
    });
    const asked: ConfirmationRequest[] = [];
    const model = new ScriptedModel((r): ScriptedTurn => {
      const child = r.systemInstruction?.includes('You run commands');
      const response = lastParts(r).find((p) => p.kind === 'function_response');
      if (response && response.kind === 'function_response')
        return { parts: [{ text: JSON.stringify(response.response) }] };
      return child
        ? { parts: [{ functionCall: { name: 'shell', args: { command: 'touch pwned.txt' } } }] }
        : {
            parts: [
              {
                functionCall: {
                  name: 'task',
                  args: {
                    agent: { type: 'prompt', system_prompt: 'You run commands.', tools: 'inherit' },
                    query: 'make a file',
                  },
                },
              },
            ],
          };
    });
    await runDefinition(definition, {
      model,
      tools: builtinTools,
      workspace: dir,
      inputs: { prompt: 'go' },
      confirm: async (request) => (asked.push(request), { kind: 'approve' }),
    });
    expect(asked).toEqual([]);
    await expect(
      import('node:fs/promises').then((fs) => fs.access(path.join(dir, 'pwned.txt'))),
    ).rejects.toThrow();
  });

  it('a glob on the shell command in an allow rule is a policy load error', () => {
    expect(() =>
      parsePolicyFile(
        'rules:\n  - tool: shell\n    when: { command: "git status*" }\n    decision: allow\n    reason: r\n',
      ),
    ).toThrow(/rules\.0\.when\.command: a glob or regex cannot vet a shell command/);
  });

  it('a pattern on a tool that cannot check patterns is a warning; the tool is granted whole', async () => {
    const file = await claudeAgent('Read(src/**)');
    const { definition, warnings } = await loadDefinition(file, { cwd: dir });
    expect(definition.toolConfig).toEqual({ tools: ['read_file'] });
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/read_file cannot be narrowed/);
  });
});
