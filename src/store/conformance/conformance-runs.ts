import { describe, expect, it } from 'vitest';
import type { NewAction } from '../types.js';
import { sampleRunState, seedRun, type CurrentFixture } from './conformance-store.js';

const state = sampleRunState('running');

const action = (runId: string, callId: string): NewAction => ({
  runId,
  callId,
  tool: 'gmail_send',
  args: { to: ['bob@example.com'], subject: 'Hi', nested: { n: 1 } },
  inputHash: 'c'.repeat(64),
  status: 'awaiting_confirmation',
  requiresApproval: true,
});

export function runCases(fixture: CurrentFixture): void {
  describe('runs', () => {
    it('stores the definition snapshot, its hash and defaults; another user gets not found', async () => {
      const { store } = fixture();
      const { user, run } = await seedRun(store);
      const bob = await store.auth.ensureUser('bob');
      expect(run).toMatchObject({
        status: 'planning',
        summary: '',
        state: null,
        model: 'scripted',
      });
      expect(run.usage.totalTokens).toBe(0);
      expect(await store.runs.get(run.id, user.id)).toEqual(run);
      expect(await store.runs.get(run.id, bob.id)).toBeUndefined();
    });

    it('updates state, summary and usage; completing sets finishedAt', async () => {
      const { store } = fixture();
      const { user, run } = await seedRun(store);
      const updated = await store.runs.update(run.id, {
        state,
        summary: 'Done.',
        usage: state.usage,
      });
      expect(updated.ok && (await updated.value.state?.read())).toEqual(state);
      const done = await store.runs.update(
        run.id,
        { status: 'completed' },
        { expectedStatus: 'planning' },
      );
      expect(done.ok && done.value.finishedAt).toBeTruthy();
      const read = await store.runs.get(run.id, user.id);
      expect(read).toMatchObject({
        status: 'completed',
        summary: 'Done.',
        usage: state.usage,
      });
      expect(await read?.state?.read()).toEqual(state);
    });

    it('expectedStatus guards the update: a mismatch reports the status found and writes nothing', async () => {
      const { store } = fixture();
      const { user, run } = await seedRun(store);
      const result = await store.runs.update(
        run.id,
        { status: 'executing', summary: 'no' },
        { expectedStatus: ['queued', 'awaiting_confirmation'] },
      );
      expect(result).toEqual({ ok: false, reason: 'status_mismatch', status: 'planning' });
      expect((await store.runs.get(run.id, user.id))?.summary).toBe('');
      expect(await store.runs.update('missing', { status: 'failed' })).toEqual({
        ok: false,
        reason: 'not_found',
      });
    });

    it('RACE: two resumers moving awaiting_confirmation → executing: exactly one wins', async () => {
      const { store } = fixture();
      const { run } = await seedRun(store, 'alice', 'awaiting_confirmation');
      const results = await Promise.all(
        [1, 2, 3, 4].map(() =>
          store.runs.update(
            run.id,
            { status: 'executing' },
            { expectedStatus: 'awaiting_confirmation' },
          ),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok && r.reason === 'status_mismatch')).toHaveLength(3);
    });
  });

  describe('actions', () => {
    it('keeps the arguments exactly; creating the same call twice returns the stored action', async () => {
      const { store } = fixture();
      const { run } = await seedRun(store);
      const first = await store.actions.create(action(run.id, 'call_1'));
      const again = await store.actions.create({ ...action(run.id, 'call_1'), status: 'planned' });
      expect(again).toEqual(first);
      expect(first.args).toEqual(action(run.id, 'call_1').args);
      expect(first).toMatchObject({ requiresApproval: true, status: 'awaiting_confirmation' });
      expect(await store.actions.get(first.id)).toEqual(first);
      expect(await store.actions.get('missing')).toBeUndefined();
    });

    it('lists a run’s actions in creation order', async () => {
      const { store } = fixture();
      const { run } = await seedRun(store);
      const ids = [];
      for (const callId of ['c', 'a', 'b', 'd', 'e'])
        ids.push((await store.actions.create(action(run.id, callId))).id);
      expect((await store.actions.list(run.id)).map((a) => a.id)).toEqual(ids);
    });

    it('RACE: two callers moving awaiting_confirmation → executing: exactly one wins', async () => {
      const { store } = fixture();
      const { run } = await seedRun(store);
      const created = await store.actions.create(action(run.id, 'call_1'));
      const results = await Promise.all(
        [1, 2, 3, 4].map(() =>
          store.actions.transition(created.id, { from: 'awaiting_confirmation', to: 'executing' }),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual(
        Array(3).fill({ ok: false, reason: 'status_mismatch', status: 'executing' }),
      );
    });

    it('records output or error on the way out and sets finishedAt', async () => {
      const { store } = fixture();
      const { run } = await seedRun(store);
      const ok = await store.actions.create(action(run.id, 'ok'));
      const bad = await store.actions.create(action(run.id, 'bad'));
      for (const id of [ok.id, bad.id])
        await store.actions.transition(id, {
          from: ['planned', 'awaiting_confirmation'],
          to: 'executing',
        });
      const done = await store.actions.transition(ok.id, {
        from: 'executing',
        to: 'completed',
        output: { messageId: 'm1' },
      });
      const failed = await store.actions.transition(bad.id, {
        from: 'executing',
        to: 'failed',
        errorCode: 'tool_execution_error',
        errorMessage: 'SMTP refused',
      });
      expect(done.ok && done.value).toMatchObject({
        status: 'completed',
        output: { messageId: 'm1' },
      });
      expect(done.ok && done.value.finishedAt).toBeTruthy();
      expect(failed.ok && failed.value).toMatchObject({
        errorCode: 'tool_execution_error',
        errorMessage: 'SMTP refused',
      });
      expect(
        await store.actions.transition('missing', { from: 'planned', to: 'executing' }),
      ).toEqual({
        ok: false,
        reason: 'not_found',
      });
    });
  });
}
