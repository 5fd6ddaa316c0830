import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import type { RunService } from '../run-service-types.js';
import { createRunService } from './create-run-service.js';
import { workspacePathFor, type WorkspacePlan } from './run-workspace.js';

// `--workspace-scope thread` on the real run service (scripted model, real SQLite): each
// thread works in its own folder, and a run resumed by another service instance (a restart,
// another worker) after its approval finds the same folder.
let dir: string;
let plan: Extract<WorkspacePlan, { kind: 'per-user' }>;
let userId: string;

const promptOf = (request: ModelRequest): string =>
  request.messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => m.parts)
    .map((p) => (p.kind === 'text' ? p.text : ''))
    .join(' ');
/** By the latest prompt: write or read `note.txt`; after a tool's answer, report it. */
const model = new ScriptedModel((request): ScriptedTurn => {
  const last = request.messages.at(-1)?.parts ?? [];
  if (last.some((p) => p.kind === 'function_response'))
    return { parts: [{ text: 'RESULT {{toolResult}}' }] };
  const prompt = promptOf(request);
  const call = prompt.endsWith('read')
    ? { name: 'read_file', args: { path: 'note.txt' } }
    : { name: 'write_file', args: { path: 'note.txt', content: 'THREAD-ONE-NOTE' } };
  return { parts: [{ functionCall: call }] };
});

async function open(): Promise<{ store: Store; service: RunService }> {
  const store = await openStore({ url: join(dir, 'cadre.db') });
  const service = await createRunService({
    store,
    cwd: dir,
    workspace: plan,
    env: { HOME: dir },
    modelClient: model,
  });
  return { store, service };
}

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-thread-ws-')));
  const base = join(dir, '.cadre', 'workspaces');
  await mkdir(base, { recursive: true });
  await mkdir(join(dir, 'agents'));
  await writeFile(
    join(dir, 'agents', 'notes.yaml'),
    'name: notes\ndescription: Notes\ntoolConfig:\n  tools: [read_file, write_file]\n',
  );
  plan = { kind: 'per-user', base, scope: 'thread' };
  const { store, service } = await open();
  userId = (await store.auth.ensureUser('ann')).id;
  await service.close();
  await store.close();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a workspace per thread (real run service, scripted model)', () => {
  it('resumes an approved write on a new instance in the same thread folder; another thread never sees it', async () => {
    const first = await open();
    const paused = await first.service.run({ userId, prompt: 'write', agent: 'notes' });
    expect(paused.status).toBe('awaiting_confirmation');
    await first.service.close();
    await first.store.close();

    // Another process on the same database and base folder takes the decision and the run.
    const second = await open();
    try {
      const approvalId = paused.approvals[0]?.approvalId ?? '';
      const done = await second.service.resolveApproval({
        userId,
        approvalId,
        decision: 'approve_once',
      });
      expect(done.status).toBe('completed');
      const threadFolder = workspacePathFor(plan, { userId, threadId: paused.threadId });
      expect(await readFile(join(threadFolder, 'note.txt'), 'utf8')).toBe('THREAD-ONE-NOTE');

      const again = await second.service.run({
        userId,
        prompt: 'read',
        agent: 'notes',
        threadId: paused.threadId,
        record: true,
      });
      expect(again.summary).toContain('THREAD-ONE-NOTE');
      // Recordings stay in the server's own state, out of every workspace.
      expect(existsSync(join(dir, '.cadre', 'runs', `${again.runId}.json`))).toBe(true);

      const other = await second.service.run({ userId, prompt: 'read', agent: 'notes' });
      expect(other.summary).not.toContain('THREAD-ONE-NOTE');
      expect(other.summary).toMatch(/No such file or directory: note\.txt/);
      const userFolder = workspacePathFor({ ...plan, scope: 'user' }, { userId, threadId: '' });
      expect((await readdir(userFolder)).sort()).toHaveLength(2);
    } finally {
      await second.service.close();
      await second.store.close();
    }
  });
});
