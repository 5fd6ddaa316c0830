import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exited } from '../../testing/processes.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import type { RunService } from '../run-service-types.js';
import { createRunService } from './create-run-service.js';

const NOTES_SERVER = fileURLToPath(
  new URL('../../mcp/client/testing/notes-mcp-server.mjs', import.meta.url),
);

let dir: string;
let starts: string;
let store: Store;
let service: RunService;
let userId: string;

const lastParts = (r: ModelRequest) => r.messages.at(-1)?.parts ?? [];
const responses = (r: ModelRequest) =>
  lastParts(r).flatMap((p) => (p.kind === 'function_response' ? [p] : []));
const promptOf = (r: ModelRequest): string => {
  const first = r.messages.find((m) => m.role === 'user')?.parts[0];
  return first?.kind === 'text' ? first.text : '';
};
/**
 * Scripted: add a note (needs approval), then list the notes, then answer
 * with the list; "Wipe" calls the untrusted server's wipe_notes instead.
 */
const scribe = new ScriptedModel((request): ScriptedTurn => {
  const got = responses(request);
  if (promptOf(request) === 'Wipe')
    return got.length === 0
      ? { parts: [{ functionCall: { name: 'liar__wipe_notes', args: {} } }] }
      : { parts: [{ text: `Wiped: ${JSON.stringify(got[0]?.response)}` }] };
  if (got.length === 0)
    return { parts: [{ functionCall: { name: 'notes__add_note', args: { text: 'ship it' } } }] };
  if (got[0]?.name === 'notes__add_note')
    return { parts: [{ functionCall: { name: 'notes__list_notes', args: {} } }] };
  return { parts: [{ text: `Notes: ${JSON.stringify(got[0]?.response)}` }] };
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-server-mcp-'));
  starts = join(dir, 'starts.txt');
  await mkdir(join(dir, '.cadre'));
  await mkdir(join(dir, 'agents'));
  await writeFile(
    join(dir, '.cadre', 'mcp.json'),
    JSON.stringify({
      mcpServers: {
        notes: {
          command: process.execPath,
          args: [NOTES_SERVER, '--stdio'],
          env: { NOTES_STARTS: starts },
          trust: 'readOnlyHints',
        },
        // The same server, not trusted: its readOnlyHint labels change nothing.
        liar: { command: process.execPath, args: [NOTES_SERVER, '--stdio'] },
      },
    }),
  );
  await writeFile(
    join(dir, 'agents', 'wiper.yaml'),
    'name: wiper\ndescription: Wipes notes.\ntoolConfig:\n  tools: [liar__wipe_notes]\n',
  );
  await writeFile(
    join(dir, 'agents', 'scribe.yaml'),
    'name: scribe\ndescription: Keeps notes.\ntoolConfig:\n  tools: [notes__add_note, notes__list_notes]\n',
  );
  store = await openStore({ url: join(dir, 'cadre.db') });
  service = await createRunService({ store, cwd: dir, env: { HOME: dir }, modelClient: scribe });
  userId = (await store.auth.ensureUser('ann')).id;
}, 30_000);
afterAll(async () => {
  await service.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const pids = async () => (await readFile(starts, 'utf8')).split('\n').filter(Boolean).map(Number);

describe('project MCP servers under the server (real server process, scripted model responses)', () => {
  it('an MCP tool without readOnlyHint waits for approval; the approved call runs after the resume on a fresh server', async () => {
    const paused = await service.run({ userId, prompt: 'Note it', agent: 'scribe' });
    expect(paused.status).toBe('awaiting_confirmation');
    expect(paused.approvals).toEqual([
      expect.objectContaining({
        tool: 'notes__add_note',
        preview: 'notes__add_note {text: "ship it"}',
      }),
    ]);
    // The pause ended the run's hold on its servers.
    const [first] = await pids();
    expect(await exited(first as number)).toBe(true);

    const done = await service.resolveApproval({
      userId,
      approvalId: paused.approvals[0]!.approvalId,
      decision: 'approve_once',
    });
    expect(done.status).toBe('completed');
    expect(done.summary).toBe('Notes: {"output":{"notes":["ship it"],"text":"ship it"}}');
    expect(done.actions[0]).toMatchObject({ tool: 'notes__add_note', status: 'completed' });
    const all = await pids();
    expect(all).toHaveLength(2);
    expect(await exited(all[1] as number)).toBe(true);
  });

  it('a destructive tool an untrusted project server labels readOnlyHint waits for approval like any side effect', async () => {
    const paused = await service.run({ userId, prompt: 'Wipe', agent: 'wiper' });
    expect(paused.status).toBe('awaiting_confirmation');
    expect(paused.approvals).toEqual([expect.objectContaining({ tool: 'liar__wipe_notes' })]);
    const done = await service.resolveApproval({
      userId,
      approvalId: paused.approvals[0]!.approvalId,
      decision: 'reject',
    });
    expect(done.status).toBe('completed');
    expect(done.summary).toMatch(/^Wiped: \{"error":"The user rejected this call/);
  });
});
