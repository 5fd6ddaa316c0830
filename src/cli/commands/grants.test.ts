import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../store/open-store.js';
import type { Grant } from '../../store/records.js';
import { runCliCaptured } from '../../testing/run-cli-captured.js';

let dir: string;
let db: string;
let anns: Grant;
let bobs: Grant;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-grants-cli-'));
  db = join(dir, 'cadre.db');
  const store = await openStore({ url: db });
  try {
    const ann = await store.auth.ensureUser('ann');
    const bob = await store.auth.ensureUser('bob');
    anns = await store.grants.add({
      userId: ann.id,
      agent: 'mailer',
      tool: 'gmail_send',
      recipient: 'ana@example.com',
      setBy: 'ann',
    });
    bobs = await store.grants.add({
      userId: bob.id,
      agent: 'assistant',
      tool: 'calendar_event_create',
      recipient: 'carol@example.com',
      setBy: 'bob',
    });
  } finally {
    await store.close();
  }
});

describe('cadre grants (temp SQLite store)', () => {
  it('lists every grant by a short unique id with its user, agent and setter, naming the database', async () => {
    const listed = await runCliCaptured(['grants', 'list', '--db', db], { cwd: dir });
    expect(listed.code).toBe(0);
    expect(listed.stderr).toContain(`Grants in ${db}`);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+USER\s+AGENT\s+TOOL\s+RECIPIENT\s+SET$/);
    const shown = lines[1]?.split(/\s+/)[0] ?? '';
    expect(shown.length).toBeLessThan(anns.id.length);
    expect(anns.id.endsWith(shown)).toBe(true);
    expect(bobs.id.endsWith(shown)).toBe(false);
    expect(lines[1]).toMatch(
      new RegExp(`^${shown}\\s+ann\\s+mailer\\s+gmail_send\\s+ana@example.com\\s+.* UTC by ann$`),
    );
    expect(lines).toHaveLength(3);
  });

  it('refuses a shared head of the ids or a too short part, naming the candidates', async () => {
    let common = 0;
    while (anns.id[common] === bobs.id[common]) common += 1;
    const shared = anns.id.slice(0, Math.max(common, 6));
    // Time-ordered ids made in one go share at least their first 6 digits.
    expect(bobs.id.startsWith(shared)).toBe(true);
    const ambiguous = await runCliCaptured(['grants', 'revoke', shared, '--db', db], { cwd: dir });
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(`'${shared}' matches more than one grant`);
    expect(ambiguous.stderr).toContain(anns.id);
    expect(ambiguous.stderr).toContain(bobs.id);
    const short = await runCliCaptured(['grants', 'revoke', bobs.id.slice(-3), '--db', db], {
      cwd: dir,
    });
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('too short');
    const left = await runCliCaptured(['grants', 'list', '--json', '--db', db], { cwd: dir });
    expect(JSON.parse(left.stdout)).toHaveLength(2);
  });

  it('--user and --json narrow and shape the list; CADRE_DATABASE_URL names the database', async () => {
    const listed = await runCliCaptured(['grants', 'list', '--user', 'bob', '--json'], {
      cwd: dir,
      env: { CADRE_DATABASE_URL: db },
    });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        id: bobs.id,
        user: 'bob',
        agent: 'assistant',
        tool: 'calendar_event_create',
        recipient: 'carol@example.com',
        createdAt: bobs.createdAt,
        setBy: 'bob',
      },
    ]);
  });

  it('revokes one grant by the short id the list shows; an unknown id is an error', async () => {
    const listed = await runCliCaptured(['grants', 'list', '--user', 'ann', '--db', db], {
      cwd: dir,
    });
    const shown = listed.stdout.trim().split('\n')[1]?.split(/\s+/)[0] ?? '';
    expect(shown).not.toBe(anns.id);
    const revoked = await runCliCaptured(['grants', 'revoke', shown, '--db', db], { cwd: dir });
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(
      'Revoked: mailer may no longer call gmail_send for ana@example.com without asking ann.\n',
    );
    const again = await runCliCaptured(['grants', 'revoke', anns.id, '--db', db], { cwd: dir });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no grant has the id '${anns.id}'`);
    const left = await runCliCaptured(['grants', 'list', '--json', '--db', db], { cwd: dir });
    expect((JSON.parse(left.stdout) as Array<{ id: string }>).map((g) => g.id)).toEqual([bobs.id]);
  });

  it('refuses a database that does not exist instead of creating an empty one', async () => {
    const missing = join(dir, 'elsewhere', 'cadre.db');
    const listed = await runCliCaptured(['grants', 'list', '--db', missing], { cwd: dir });
    expect(listed.code).toBe(2);
    expect(listed.stderr).toContain(`no database at ${missing}`);
  });
});
