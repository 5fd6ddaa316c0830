import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunState } from '../../contracts/run-state.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { CadreEvent } from '../../events/types.js';
import { cachedResolver } from '../../model/cached-resolver.js';
import { loadScriptedModel } from '../../model/scripted-file.js';
import { builtinTools } from '../../tools/builtin/index.js';
import { type ExecutionOptions } from '../loop/executor.js';
import { resume, start } from '../run-verbs.js';
import { agentCatalog as catalog } from '../../testing/agent-catalog.js';

describe('a worker-thread domain waits for approval (scripted model files)', () => {
  it('pauses the run from its thread, resumes in this process where it stopped, and writes once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cadre-thread-approval-'));
    const script = async (name: string, turns: unknown[]): Promise<string> => {
      const file = join(dir, `${name}.json`);
      await writeFile(file, JSON.stringify(turns));
      return `scripted:${file}`;
    };
    const writer: AgentDefinition = {
      name: 'writer',
      description: 'Writes notes',
      promptConfig: { systemPrompt: 'Write.' },
      toolConfig: { tools: ['write_file'] },
      modelConfig: {
        model: await script('writer', [
          {
            parts: [
              { functionCall: { name: 'write_file', args: { path: 'n.txt', content: 'hi' } } },
            ],
          },
          { parts: [{ text: 'Written.' }] },
        ]),
      },
    };
    const router: AgentDefinition = {
      name: 'desk',
      description: 'Routes',
      promptConfig: { systemPrompt: 'Route.' },
      toolConfig: { tools: [] },
      router: { domains: ['writer'], domainTimeoutSecs: 60 },
      modelConfig: {
        model: await script('desk', [
          {
            parts: [
              {
                functionCall: {
                  name: 'route',
                  args: { targets: [{ domain: 'writer', intent: 'write n.txt' }] },
                },
              },
            ],
          },
          { parts: [{ text: 'The writer is done.' }] },
        ]),
      },
    };
    const events: CadreEvent[] = [];
    const options: ExecutionOptions = {
      tools: builtinTools,
      agents: catalog(writer, router),
      workspace: dir,
      resolveModel: cachedResolver((model: string) => ({
        client: loadScriptedModel(model.replace(/^scripted:/, ''), dir, { resume: true }),
        model,
      })),
      router: { executionMode: 'threads' },
      inputs: { prompt: 'write a note' },
      confirm: () => Promise.resolve({ kind: 'pause' }),
      onEvent: (e) => events.push(e),
    };
    const paused = await start(router, options);
    if (paused.status !== 'paused')
      throw new Error(`expected a pause: ${JSON.stringify(paused.result)}`);
    expect(events.some((e) => e.type === 'thread_started')).toBe(true);
    expect(paused.pending.map((p) => p.path)).toEqual([['desk', 'writer', 'write_file']]);
    await expect(readFile(join(dir, 'n.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
    const done = await resume(
      router,
      JSON.parse(JSON.stringify(paused.state)) as RunState,
      { [paused.pending[0]?.callId ?? '']: { kind: 'approve' } },
      { ...options, confirm: () => Promise.resolve({ kind: 'pause' }) },
    );
    if (done.status !== 'finished') throw new Error('expected the end');
    expect(done.result.content).toBe('The writer is done.');
    expect(await readFile(join(dir, 'n.txt'), 'utf8')).toBe('hi');
  }, 30_000);
});
