import { readFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { definitionJsonSchema } from '../definition/definition-json-schema.js';
import { runCliCaptured } from '../testing/run-cli-captured.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('cadre validate', () => {
  it('accepts the shipped examples (YAML, Markdown and a TS module with a Zod schema)', async () => {
    // The repository is the project here: its TS example is imported only when trusted.
    const run = await runCliCaptured(['validate', '--trust-project', 'examples/agents'], {
      cwd: repo,
    });
    expect(run.stdout).toContain(
      'ok examples/agents/codebase-investigator.yaml (codebase_investigator)',
    );
    expect(run.stdout).toContain('ok examples/agents/code-reviewer.md (code-reviewer)');
    expect(run.stdout).toContain('ok examples/agents/changelog-writer.yaml (changelog_writer)');
    expect(run.stdout).toContain('ok examples/agents/release-notes.ts (release_notes)');
    expect(run.stdout).toMatch(/\n\d+ valid, 0 invalid\n$/);
    expect(run.code).toBe(0);
  });

  it('exits 1 and lists every error with file:line:column', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cadre-validate-'));
    await writeFile(
      join(dir, 'x.yaml'),
      'name: x\ndescription: d\npromptconfig:\n  systemPrompt: hi\nrunConfig:\n  max_turns: ten\n  max_time_minutes: -1\n',
    );
    const run = await runCliCaptured(['validate', 'x.yaml'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/x\.yaml:3:1 promptconfig: .*promptConfig/);
    expect(run.stdout).toMatch(
      /x\.yaml:6:14 runConfig\.max_turns: expected a positive integer, got "ten"/,
    );
    expect(run.stdout).toMatch(/x\.yaml:7:\d+ runConfig\.max_time_minutes: /);
    expect(run.stdout).toContain('0 valid, 1 invalid');
  });

  it('--strict requires the fields the spec marks required', async () => {
    const run = await runCliCaptured(['validate', '--strict', 'examples/agents/code-reviewer.md'], {
      cwd: repo,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/inputConfig: is required by the agent definition spec/);
  });

  it('--strict errors say file:line:column like the other definition errors', async () => {
    const markdown = await runCliCaptured(
      ['validate', '--strict', 'examples/agents/code-reviewer.md'],
      { cwd: repo },
    );
    // Missing top-level fields point at the frontmatter's first line (line 1 is its `---`).
    expect(markdown.stdout).toContain(
      'error examples/agents/code-reviewer.md:2:1 inputConfig: is required by the agent definition spec (--strict)',
    );
    const dir = await mkdtemp(join(tmpdir(), 'cadre-strict-'));
    await writeFile(
      join(dir, 'half.yaml'),
      'name: half\ndescription: Half done.\ninputConfig:\n  inputs: {}\noutputConfig:\n  outputName: result\nprompt_config:\n  system_prompt: Be brief.\n',
    );
    const yaml = await runCliCaptured(['validate', '--strict', 'half.yaml'], {
      cwd: dir,
      env: { HOME: dir },
    });
    expect(yaml.code).toBe(1);
    // A missing field inside a section points at that section's key.
    expect(yaml.stdout).toBe(
      'error half.yaml:7:1 prompt_config.query: is required by the agent definition spec (--strict)\n0 valid, 1 invalid\n',
    );
  });
});

describe('cadre schema', () => {
  it('prints the JSON Schema of the format, identical to the shipped spec/agent-definition.schema.json', async () => {
    const run = await runCliCaptured(['schema'], { cwd: repo });
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(printed).toEqual(definitionJsonSchema());
    // Regenerate with `npm run schema:write` when the format changes.
    const shipped = JSON.parse(
      await readFile(join(repo, 'spec/agent-definition.schema.json'), 'utf8'),
    ) as unknown;
    expect(shipped).toEqual(printed);
  });
});

describe('cadre agents', () => {
  it('lists the definitions in a folder with their description and tools', async () => {
    const run = await runCliCaptured(['agents', 'examples/agents'], { cwd: repo });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /codebase_investigator {2}project examples\/agents\/codebase-investigator\.yaml\n {2}The specialized tool/,
    );
    expect(run.stdout).toMatch(/code-reviewer[\s\S]*read_file, grep, glob/);
  });

  it('looks in ./agents and .cadre/agents by default and names invalid files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cadre-agents-'));
    await runCliCaptured(['agents'], { cwd: dir, env: { HOME: dir } }).then((run) => {
      // An empty project still has the built-in code agents.
      expect(run.stdout).toMatch(/^deep_research {2}builtin\n/m);
      expect(run.stdout).toMatch(/^react {2}builtin\n/m);
    });
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, '.cadre/agents'), { recursive: true });
    await writeFile(
      join(dir, '.cadre/agents/helper.md'),
      '---\nname: helper\ndescription: Helps\n---\nHelp.\n',
    );
    await writeFile(join(dir, '.cadre/agents/broken.yaml'), 'name: [\n');
    const run = await runCliCaptured(['agents'], { cwd: dir });
    expect(run.stdout).toMatch(/^helper/m);
    expect(run.stderr).toMatch(
      /skipped \.cadre\/agents\/broken\.yaml: \.cadre\/agents\/broken\.yaml:2:1 invalid YAML/,
    );
  });

  it('says which tools a discovered agent file names that Cadre leaves out', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cadre-agents-warn-'));
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'agents'), { recursive: true });
    await writeFile(
      join(dir, 'agents/notebook.md'),
      '---\nname: notebook\ndescription: Edits notebooks\ntools: Read, NotebookEdit\n---\nEdit.\n',
    );
    const run = await runCliCaptured(['agents'], { cwd: dir, env: { HOME: dir } });
    expect(run.stdout).toMatch(/^notebook/m);
    expect(run.stderr).toMatch(/warning agents\/notebook\.md:4:\d+ tools.*"NotebookEdit"/);
  });

  it('project agents override user agents of the same name, and say so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cadre-precedence-'));
    const home = await mkdtemp(join(tmpdir(), 'cadre-home-'));
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'agents'), { recursive: true });
    await mkdir(join(home, '.cadre/agents'), { recursive: true });
    await writeFile(
      join(dir, 'agents/helper.md'),
      '---\nname: helper\ndescription: Project helper\n---\nHelp.\n',
    );
    await writeFile(
      join(home, '.cadre/agents/helper.md'),
      '---\nname: helper\ndescription: User helper\n---\nHelp.\n',
    );
    await writeFile(
      join(home, '.cadre/agents/mine.md'),
      '---\nname: mine\ndescription: Only mine\n---\nHi.\n',
    );
    const run = await runCliCaptured(['agents'], { cwd: dir, env: { HOME: home } });
    expect(run.stdout).toMatch(/^helper {2}project agents\/helper\.md\n {2}Project helper/m);
    expect(run.stdout).toMatch(/^mine {2}user /m);
    expect(run.stdout).not.toContain('User helper');
    expect(run.stderr).toMatch(
      /agent 'helper' from project \(agents\/helper\.md\) overrides the one from user/,
    );
  });
});
