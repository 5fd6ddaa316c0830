import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import type { RunService } from '../run-service-types.js';
import { createRunService, type RunServiceOptions } from './create-run-service.js';
import { modelStringFor } from './run-model.js';

const AUDIT_KEY = randomBytes(32);
const SCRIPT = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../examples/scripts/assistant-turns.json',
);
const PROMPT = 'Book a design review with Ana on 1 December at 9 UTC';
const BOOKED = 'Booked: Design review on 1 December, 09:00–09:30 UTC, with ana@example.com.';

let dir: string;
const opened: Array<{ store: Store; service: RunService }> = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-run-model-'));
});
afterEach(async () => {
  for (const { service, store } of opened.splice(0)) {
    await service.close();
    await store.close();
  }
});

async function serve(
  options: Partial<RunServiceOptions> = {},
): Promise<{ service: RunService; store: Store; userId: string }> {
  const store = await openStore({ url: join(dir, 'cadre.db'), auditKey: AUDIT_KEY });
  const service = await createRunService({ store, cwd: dir, env: { HOME: dir }, ...options });
  opened.push({ store, service });
  return { service, store, userId: (await store.auth.ensureUser('ann')).id };
}

async function restart(options: Partial<RunServiceOptions>) {
  const { service, store } = opened.pop()!;
  await service.close();
  await store.close();
  return serve(options);
}

describe('the model a server run uses (scripted models)', () => {
  it('CADRE_MODEL=scripted:… survives an approval: the resumed run keeps the scripted model', async () => {
    const env = { HOME: dir, CADRE_MODEL: `scripted:${SCRIPT}` };
    const { service, userId } = await serve({ env });
    const asked = await service.run({ userId, prompt: PROMPT });
    expect(asked.status).toBe('awaiting_confirmation');
    // Before, the resumed run asked Gemini for the script's path: "Gemini needs GEMINI_API_KEY".
    const done = await service.resolveApproval({
      userId,
      approvalId: asked.approvals[0]!.approvalId,
      decision: 'approve_once',
    });
    expect(done).toMatchObject({ status: 'completed', summary: BOOKED });
    expect(done.actions).toEqual([expect.objectContaining({ status: 'completed' })]);
  });

  it('also after a restart, when the scripted client is made afresh for the resumed run', async () => {
    const env = { HOME: dir, CADRE_MODEL: `scripted:${SCRIPT}` };
    const { service, userId } = await serve({ env });
    const asked = await service.run({ userId, prompt: PROMPT });
    const after = await restart({ env });
    const done = await after.service.resolveApproval({
      userId,
      approvalId: asked.approvals[0]!.approvalId,
      decision: 'approve_once',
    });
    expect(done).toMatchObject({ status: 'completed', summary: BOOKED });
  });

  it('a resume that fails leaves no call waiting: the approved call is failed (not_run), nothing is pending', async () => {
    const env = { HOME: dir, CADRE_MODEL: `scripted:${SCRIPT}` };
    const after = await serve({ env });
    const { store, userId } = after;
    const asked = await after.service.run({ userId, prompt: PROMPT });
    // A run whose model cannot be reached on resume (here: it names another provider's id).
    await store.runs.update(asked.runId, { model: 'scripted:gone.json' });
    const failed = await after.service.resolveApproval({
      userId,
      approvalId: asked.approvals[0]!.approvalId,
      decision: 'approve_once',
    });
    expect(failed.status).toBe('failed');
    expect(failed.actions).toEqual([
      expect.objectContaining({ tool: 'calendar_event_create', status: 'failed' }),
    ]);
    expect(failed.approvals).toEqual([]);
    const pending = await after.service.pendingApprovalPage(userId, { limit: 10 });
    expect(pending.approvals).toEqual([]);
    const audit = await store.audit.list({ runId: asked.runId });
    expect(audit.at(-1)).toMatchObject({ executionStatus: 'failed', errorCode: 'not_run' });
  });

  it('serve --model is only the default: an agent naming its own (scripted) model keeps it, and the run names it', async () => {
    const own = join(dir, 'own-turns.json');
    await writeFile(own, JSON.stringify({ turns: [{ parts: [{ text: 'From my own model.' }] }] }));
    await mkdir(join(dir, 'agents'));
    await writeFile(
      join(dir, 'agents', 'own.yaml'),
      [
        'name: own',
        'description: Answers with its own model.',
        'promptConfig: { systemPrompt: You answer. }',
        `modelConfig: { model: "scripted:${own}" }`,
        'toolConfig: { tools: [] }',
      ].join('\n'),
    );
    const { service, store, userId } = await serve({ model: `scripted:${SCRIPT}` });
    const answered = await service.run({ userId, agent: 'own', prompt: 'Hello' });
    expect(answered).toMatchObject({ status: 'completed', summary: 'From my own model.' });
    expect((await store.runs.get(answered.runId, userId))?.model).toBe(`scripted:${own}`);
    // The default assistant names no model: --model is the one it runs.
    const assistant = await service.run({ userId, prompt: PROMPT });
    expect(assistant.status).toBe('awaiting_confirmation');
    expect((await store.runs.get(assistant.runId, userId))?.model).toBe(`scripted:${SCRIPT}`);
  });
});

describe('modelStringFor', () => {
  it('maps the id a paused run kept back to the run’s model string', () => {
    expect(modelStringFor('turns.json', 'scripted:turns.json')).toBe('scripted:turns.json');
    expect(modelStringFor('gpt-4.1', 'openai:gpt-4.1')).toBe('openai:gpt-4.1');
    expect(modelStringFor('qwen3:8b', 'ollama:qwen3:8b')).toBe('ollama:qwen3:8b');
    expect(modelStringFor('gemini-2.5-flash', 'gemini-2.5-flash')).toBe('gemini-2.5-flash');
    // A subagent's own model is left alone.
    expect(modelStringFor('gemini-2.5-pro', 'scripted:turns.json')).toBe('gemini-2.5-pro');
  });
});
