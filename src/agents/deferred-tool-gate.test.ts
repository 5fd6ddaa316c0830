import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmationRequest } from '../contracts/confirmation.js';
import type { AgentDefinition } from '../definition/types.js';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.js';
import type { ModelRequest } from '../model/types.js';
import { shellSpec, webFetchSpec } from '../tools/builtin/builtin-tool-specs.js';
import { deferredTool } from '../tools/builtin/builtin-tools.js';
import { shellTool } from '../tools/shell/shell-tool.js';
import type { Tool } from '../tools/types.js';
import { webFetchTool } from '../tools/web/web-fetch-tool.js';
import { run } from './run-verbs.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-deferred-gate-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Fresh deferred built-ins, never loaded before the run (the package entry's, in a new process). */
const freshTools = (): Tool[] => [
  deferredTool(shellSpec(), () => Promise.resolve(shellTool), {
    approvalFloor: true,
    patterns: true,
  }),
  deferredTool(webFetchSpec, () => Promise.resolve(webFetchTool), { patterns: true }),
];

const lastParts = (r: ModelRequest) => r.messages.at(-1)?.parts ?? [];
/** Scripted: calls one tool once, then answers with the response it got. */
const calling = (name: string, args: Record<string, unknown>) =>
  new ScriptedModel((r): ScriptedTurn => {
    const response = lastParts(r).find((p) => p.kind === 'function_response');
    return response && response.kind === 'function_response'
      ? { parts: [{ text: JSON.stringify(response.response) }] }
      : { parts: [{ functionCall: { name, args } }] };
  });

async function narrowedRun(tool: string, patterns: string[], args: Record<string, unknown>) {
  const definition: AgentDefinition = {
    name: 'narrowed',
    description: 'Runs one narrowed tool.',
    promptConfig: { systemPrompt: 'Do it.' },
    toolConfig: { tools: [tool], patterns: { [tool]: patterns } },
  };
  const asked: ConfirmationRequest[] = [];
  const result = await run(definition, {
    model: calling(tool, args),
    tools: freshTools(),
    workspace: dir,
    inputs: { prompt: 'go' },
    confirm: async (request) => (asked.push(request), { kind: 'approve' }),
  });
  return { asked, answer: JSON.parse(result.final_message) as Record<string, unknown> };
}

describe("the gate loads a deferred tool's pattern check before a narrowed call (scripted model)", () => {
  it('a shell call outside the patterns is refused by the real check on the first call, and never runs', async () => {
    const { asked, answer } = await narrowedRun('shell', ['echo:*'], {
      command: 'echo hi; touch pwned.txt',
    });
    expect(asked).toEqual([]);
    expect(String(answer.error)).toMatch(/^Refused: /);
    expect(String(answer.error)).not.toMatch(/could not check its patterns/);
    await expect(access(path.join(dir, 'pwned.txt'))).rejects.toThrow();
  });

  it('a shell call inside the patterns passes the check on the first call, is asked about, and runs', async () => {
    const { asked, answer } = await narrowedRun('shell', ['echo:*'], { command: 'echo hello' });
    expect(asked.map((request) => request.tool)).toEqual(['shell']);
    expect((answer.output as { stdout: string }).stdout).toBe('hello\n');
  });

  it('a web_fetch call outside its domains is refused by the real check, without a request', async () => {
    const { answer } = await narrowedRun('web_fetch', ['example.com'], {
      url: 'http://127.0.0.1:9/secret',
    });
    expect(String(answer.error)).toMatch(/^Refused: /);
    expect(String(answer.error)).not.toMatch(/could not check its patterns/);
  });
});
