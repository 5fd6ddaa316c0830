import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import type { RunService } from '../run-service-types.js';
import { createRunService } from './create-run-service.js';

const AUDIT_KEY = randomBytes(32);
// The README's server demo: `cadre serve --model scripted:examples/scripts/assistant-turns.json`.
const SCRIPT = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../examples/scripts/assistant-turns.json',
);
const PROMPT = 'Book a design review with Ana on 1 December at 9 UTC';
const BOOKED = 'Booked: Design review on 1 December, 09:00–09:30 UTC, with ana@example.com.';

let dir: string;
const opened: Array<{ store: Store; service: RunService }> = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-scripted-threads-'));
});
afterEach(async () => {
  for (const { service, store } of opened.splice(0)) {
    await service.close();
    await store.close();
  }
});

async function serve(): Promise<{ service: RunService; userId: string }> {
  const store = await openStore({ url: join(dir, 'cadre.db'), auditKey: AUDIT_KEY });
  const service = await createRunService({
    store,
    cwd: dir,
    env: { HOME: dir },
    model: `scripted:${SCRIPT}`,
  });
  opened.push({ store, service });
  return { service, userId: (await store.auth.ensureUser('ann')).id };
}

const events = async (): Promise<number> =>
  (await readFile(join(dir, 'calendar.ics'), 'utf8').catch(() => '')).split('BEGIN:VEVENT').length -
  1;

describe('cadre serve with the shipped assistant script (scripted model responses)', () => {
  it('plays the whole script in each thread: two threads each ask, one is approved, one rejected', async () => {
    const { service, userId } = await serve();
    const first = await service.run({ userId, prompt: PROMPT });
    const second = await service.run({ userId, prompt: PROMPT });
    // Before, the second thread got the first one's turn 2: "Booked" with nothing booked.
    for (const asked of [first, second]) {
      expect(asked.status).toBe('awaiting_confirmation');
      expect(asked.approvals).toEqual([expect.objectContaining({ tool: 'calendar_event_create' })]);
    }
    expect(second.threadId).not.toBe(first.threadId);

    const approved = await service.resolveApproval({
      userId,
      approvalId: second.approvals[0]!.approvalId,
      decision: 'approve_once',
    });
    expect(approved).toMatchObject({ status: 'completed', summary: BOOKED });
    const rejected = await service.resolveApproval({
      userId,
      approvalId: first.approvals[0]!.approvalId,
      decision: 'reject',
      feedback: 'Not that day',
    });
    expect(rejected.status).toBe('completed');
    expect(rejected.summary).toMatch(/^OK, I did not book the design review\./);
    expect(await events()).toBe(1);
  });

  it('a further message in a finished thread fails visibly: the script has run out there', async () => {
    const { service, userId } = await serve();
    const asked = await service.run({ userId, prompt: PROMPT });
    await service.resolveApproval({
      userId,
      approvalId: asked.approvals[0]!.approvalId,
      decision: 'approve_once',
    });
    const again = await service.run({ userId, prompt: 'And Friday?', threadId: asked.threadId });
    expect(again.status).toBe('failed');
    expect(again.summary).toMatch(/^Scripted model has no turn 3: the script in .* has 2, /);
    // Another thread still gets the whole script, and books an event of its own
    // (scripted call ids differ per thread: the calendar keys its events on them).
    const other = await service.run({ userId, prompt: PROMPT });
    expect(other.status).toBe('awaiting_confirmation');
    const booked = await service.resolveApproval({
      userId,
      approvalId: other.approvals[0]!.approvalId,
      decision: 'approve_once',
    });
    expect(booked.summary).toBe(BOOKED);
    expect(await events()).toBe(2);
  });

  it('an approval decided after a restart goes on from where its thread stood', async () => {
    const before = await serve();
    const asked = await before.service.run({ userId: before.userId, prompt: PROMPT });
    const { service: old, store } = opened.pop()!;
    await old.close();
    await store.close();

    const after = await serve();
    const done = await after.service.resolveApproval({
      userId: after.userId,
      approvalId: asked.approvals[0]!.approvalId,
      decision: 'approve_once',
    });
    expect(done).toMatchObject({ status: 'completed', summary: BOOKED });
    expect(await events()).toBe(1);
  });
});
