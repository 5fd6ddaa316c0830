import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../testing/run-cli-captured.js';

let project: string;

const INVESTIGATOR = `name: investigator
description: Answers a question about a folder.
inputConfig:
  inputs:
    objective: { type: string, description: The question to answer, required: true }
    folder: { type: string, description: Where to look, required: true }
    depth: { type: number, description: How deep to look }
promptConfig:
  systemPrompt: Answer the question.
  query: \${objective} in \${folder}
toolConfig:
  tools: []
`;

beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), 'cadre-run-name-')));
  await mkdir(join(project, 'agents'));
  await writeFile(join(project, 'agents/investigator.yaml'), INVESTIGATOR);
  await writeFile(
    join(project, 'agents/greeter.md'),
    '---\nname: greeter\ndescription: Says hello.\n---\nGreet the user.\n',
  );
  await writeFile(join(project, 'hello.json'), JSON.stringify([{ parts: [{ text: 'Hello!' }] }]));
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCliCaptured(args, { cwd: project, env: { HOME: `${project}-home`, ...env } });

describe('cadre run NAME (scripted model)', () => {
  it('runs a discovered agent by name, as cadre chat accepts', async () => {
    const result = await cli(['run', 'greeter', 'hi', '--model', 'scripted:hello.json']);
    expect(result.stderr).not.toMatch(/error/);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Hello!\n');
    const named = await cli([
      'run',
      'investigator',
      '--input',
      'objective=Where?',
      '--input',
      'folder=src',
      '--model',
      'scripted:hello.json',
    ]);
    expect(named.code, named.stderr).toBe(0);
  });

  it('a name that is neither a file nor an agent is an error listing the agents', async () => {
    const result = await cli(['run', 'greter', 'hi', '--model', 'scripted:hello.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'greter: no such file, and no agent of that name in ./agents, .cadre/agents, .claude/agents, .gemini/agents or ~/.cadre/agents (agents: greeter, investigator)',
    );
  });

  it('a typo in --input is an error naming the agent’s inputs', async () => {
    const result = await cli([
      'run',
      'investigator',
      '--input',
      'objectve=Where?',
      '--input',
      'folder=src',
      '--model',
      'scripted:hello.json',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'error --input objectve: investigator has no input "objectve" (did you mean objective?); its inputs: objective (required), folder (required), depth',
    );
  });

  it('a missing input says how to pass it', async () => {
    const result = await cli([
      'run',
      'agents/investigator.yaml',
      '--input',
      'objective=Where?',
      '--model',
      'scripted:hello.json',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'error inputs.folder: is required (Where to look): pass --input folder=…',
    );
  });

  it('a prompt for an agent that takes no prompt is an error', async () => {
    const result = await cli([
      'run',
      'investigator',
      'where is it?',
      '--model',
      'scripted:hello.json',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'error prompt: investigator takes no prompt; pass its inputs with --input instead (--input objective=… --input folder=… --input depth=…)',
    );
  });

  it('a chat agent without a prompt says how to give one', async () => {
    const result = await cli(['run', 'greeter', '--model', 'scripted:hello.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('greeter needs a prompt: cadre run greeter "your message"');
  });

  it('--model gpt-5 with no OpenAI key says which providers could serve it and what to set', async () => {
    const result = await cli(['run', 'greeter', 'hi', '--model', 'gpt-5'], { GEMINI_API_KEY: 'k' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('No configured provider serves "gpt-5"');
    expect(result.stderr).toContain('Set OPENAI_API_KEY to reach it as openai:gpt-5');
    expect(result.stderr).toContain('ollama:gpt-5');
  });
});
