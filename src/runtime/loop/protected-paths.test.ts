import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../definition/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { Message } from '../../model/types.js';
import { readFileTool } from '../../tools/builtin/read-file.js';
import { run } from '../run-verbs.js';

describe('protected paths reach every tool call of a run (scripted model)', () => {
  it("refuses the server's database inside the workspace, in the root and in a subagent", async () => {
    const workspace = await realpath(await mkdtemp(join(tmpdir(), 'cadre-protected-')));
    await mkdir(join(workspace, 'data'));
    await writeFile(join(workspace, 'data', 'cadre.db'), 'EVERY-USERS-THREADS');
    const reader: AgentDefinition = {
      name: 'reader',
      description: 'Reads a file.',
      promptConfig: {},
      toolConfig: { tools: ['read_file'] },
    };
    const lead: AgentDefinition = {
      ...reader,
      name: 'lead',
      toolConfig: { tools: ['read_file', 'reader'] },
    };
    const seen: string[] = [];
    // Each agent reads the database on its first turn; the lead also asks the reader to.
    const model = new ScriptedModel((request): ScriptedTurn => {
      const last = request.messages.at(-1) as Message;
      for (const part of last.parts)
        if (part.kind === 'function_response') seen.push(JSON.stringify(part.response));
      if (last.role === 'model' || last.parts.some((p) => p.kind === 'function_response'))
        return { parts: [{ text: 'done' }] };
      const isLead = request.tools.some((t) => t.name === 'reader');
      const read = { functionCall: { name: 'read_file', args: { path: 'data/cadre.db' } } };
      const delegate = { functionCall: { name: 'reader', args: { prompt: 'read data/cadre.db' } } };
      return { parts: isLead ? [read, delegate] : [read] };
    });
    const result = await run(lead, {
      model,
      tools: [readFileTool],
      agents: {
        get: (name) => (name === 'reader' ? { kind: 'definition', definition: reader } : undefined),
        names: () => ['reader'],
      },
      workspace,
      protectedPaths: [join(workspace, 'data')],
      inputs: { prompt: 'read it' },
    });
    const all = seen.join('\n');
    expect(result.terminate_reason).toBe('GOAL');
    expect(all).not.toContain('EVERY-USERS-THREADS');
    expect(all.match(/Cadre's own state/g)).toHaveLength(2);
  });
});
