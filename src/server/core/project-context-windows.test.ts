import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { SUMMARY_INSTRUCTION } from '../../runtime/compaction/compact-conversation.js';
import { openStore } from '../../store/open-store.js';
import { createRunService } from './create-run-service.js';

// The server reads `.cadre/models.json` like the CLI: a small window there makes a run compact.
describe("the server's runs use the project's context windows (scripted model)", () => {
  it.each([
    ['with .cadre/models.json naming a 1,000-token window', true],
    ['without it (the model is unknown, so nothing triggers)', false],
  ])('%s', async (_, withFile) => {
    const dir = await mkdtemp(join(tmpdir(), 'cadre-server-windows-'));
    await mkdir(join(dir, 'agents'));
    await writeFile(
      join(dir, 'agents', 'looper.yaml'),
      'name: looper\ndescription: Lists files\nrunConfig:\n  max_turns: 10\n  compaction: { keep_turns: 1 }\ntoolConfig:\n  tools: [ls]\n',
    );
    if (withFile) {
      await mkdir(join(dir, '.cadre'), { recursive: true });
      await writeFile(
        join(dir, '.cadre', 'models.json'),
        JSON.stringify({ 'tiny-model': { contextWindow: 1_000 } }),
      );
    }
    let calls = 0;
    const model = new ScriptedModel((request) => {
      if (request.systemInstruction === SUMMARY_INSTRUCTION)
        return {
          parts: [{ text: 'Listed the files.' }],
          usage: { inputTokens: 300, outputTokens: 5 },
        };
      calls += 1;
      return calls <= 3
        ? {
            parts: [{ functionCall: { name: 'ls', args: {} } }],
            usage: { inputTokens: 900, outputTokens: 5 },
          }
        : { parts: [{ text: 'done' }], usage: { inputTokens: 100, outputTokens: 5 } };
    });
    const store = await openStore({ url: join(dir, 'cadre.db'), auditKey: randomBytes(32) });
    const service = await createRunService({
      store,
      cwd: dir,
      env: { HOME: dir },
      model: 'tiny-model',
      modelClient: model,
    });
    try {
      const userId = (await store.auth.ensureUser('ann')).id;
      const run = await service.run({ userId, prompt: 'list', agent: 'looper' });
      expect(run.status).toBe('completed');
      const events = (await service.readEvents(userId, run.runId, 0)) ?? [];
      const compacted = events.filter((e) => e.type === 'context_compacted');
      expect(compacted.length > 0).toBe(withFile);
    } finally {
      await service.close();
      await store.close();
    }
  });
});
