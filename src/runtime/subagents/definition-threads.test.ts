import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../definition/types.js';
import { loadDefinition } from '../../definition/load-definition-file.js';
import type { CadreEvent } from '../../events/types.js';
import { cachedResolver } from '../../model/cached-resolver.js';
import { loadScriptedModel } from '../../model/scripted-file.js';
import { builtinTools } from '../../tools/builtin/index.js';
import { agentCatalog as catalog } from '../../testing/agent-catalog.js';
import { TASK_TOOL } from './task-tool.js';
import { run } from '../run-verbs.js';

// `execution_mode: threads` is a definition field now: a YAML agent's children run in worker
// threads without any library option. Scripted model files play both agents.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-definition-threads-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function script(name: string, turns: unknown[]): Promise<string> {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(turns));
  return `scripted:${file}`;
}

async function lead(mode: string): Promise<AgentDefinition> {
  const model = await script(`lead-${mode}`, [
    {
      parts: [{ functionCall: { name: 'task', args: { agent: 'writer', query: 'write n.txt' } } }],
    },
    { parts: [{ text: 'Delegated.' }] },
  ]);
  const file = join(dir, `lead-${mode}.yaml`);
  await writeFile(
    file,
    `name: lead\ndescription: Delegates.\npromptConfig:\n  systemPrompt: Delegate.\n` +
      `modelConfig:\n  model: ${model}\ntoolConfig:\n  tools: [task]\n` +
      `runConfig:\n  max_turns: 4\n  execution_mode: ${mode}\n`,
  );
  return (await loadDefinition(file, { knownTools: [TASK_TOOL], isKnownAgent: () => true }))
    .definition;
}

async function runLead(mode: string) {
  const writer: AgentDefinition = {
    name: 'writer',
    description: 'Writes notes.',
    promptConfig: { systemPrompt: 'Write.' },
    toolConfig: { tools: ['write_file'] },
    modelConfig: {
      model: await script(`writer-${mode}`, [
        {
          parts: [
            { functionCall: { name: 'write_file', args: { path: `${mode}.txt`, content: mode } } },
          ],
        },
        { parts: [{ text: 'Written.' }] },
      ]),
    },
  };
  const definition = await lead(mode);
  const events: CadreEvent[] = [];
  const result = await run(definition, {
    tools: builtinTools,
    agents: catalog(writer, definition),
    workspace: dir,
    resolveModel: cachedResolver((model: string) => ({
      client: loadScriptedModel(model.replace(/^scripted:/, ''), dir, { resume: true }),
      model,
    })),
    inputs: { prompt: 'go' },
    confirm: () => Promise.resolve({ kind: 'approve' }),
    onEvent: (event) => events.push(event),
  });
  return { result, events };
}

describe('execution_mode in a definition file (scripted model files)', () => {
  it('threads: the task child runs in a worker thread and its write lands once', async () => {
    const { result, events } = await runLead('threads');
    expect(result.terminate_reason).toBe('GOAL');
    expect(events.filter((e) => e.type === 'thread_started')).toHaveLength(1);
    expect(await readFile(join(dir, 'threads.txt'), 'utf8')).toBe('threads');
  });

  it('async (the default): the same child runs in this thread', async () => {
    const { result, events } = await runLead('async');
    expect(result.terminate_reason).toBe('GOAL');
    expect(events.some((e) => e.type === 'thread_started')).toBe(false);
    expect(await readFile(join(dir, 'async.txt'), 'utf8')).toBe('async');
  });
});
