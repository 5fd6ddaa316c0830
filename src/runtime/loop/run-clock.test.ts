import { describe, expect, it } from 'vitest';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import type { AgentDefinition } from '../../definition/types.js';
import { ManualClock } from '../../util/testing/manual-clock.js';
import { Deadline, DeadlineExceeded } from './deadline.js';
import { drive, NEW_RUN } from './executor.js';

const chat: AgentDefinition = {
  name: 'chat',
  description: 'A chat agent',
  promptConfig: { systemPrompt: 'Be brief.' },
  toolConfig: { tools: [] },
};

describe('a deadline on the run clock', () => {
  it('runs out when the clock is stepped past it, not before', async () => {
    const clock = new ManualClock();
    const deadline = new Deadline(60_000, clock);
    await clock.waiting();
    clock.advance(59_999);
    expect(deadline.expired).toBe(false);
    expect(deadline.remaining()).toBe(1);
    clock.advance(1);
    await Promise.resolve();
    expect(deadline.expired).toBe(true);
    expect(deadline.signal.reason).toBeInstanceOf(DeadlineExceeded);
  });

  it('does not count the time it is paused (a person deciding)', async () => {
    const clock = new ManualClock();
    const deadline = new Deadline(10_000, clock);
    clock.advance(4_000);
    deadline.pause();
    expect(clock.pending).toBe(0);
    clock.advance(60_000);
    expect(deadline.remaining()).toBe(6_000);
    deadline.resume();
    clock.advance(5_999);
    await Promise.resolve();
    expect(deadline.expired).toBe(false);
    deadline.dispose();
    clock.advance(10_000);
    await Promise.resolve();
    expect(deadline.expired).toBe(false);
  });
});

describe('a run on a manual clock (scripted model)', () => {
  it('stamps every event with the clock, not the wall time', async () => {
    const clock = new ManualClock(Date.parse('2030-05-06T07:08:09.000Z'));
    const events: CadreEvent[] = [];
    const outcome = await drive(chat, NEW_RUN, {
      model: new ScriptedModel([{ parts: [{ text: 'Hello.' }] }]),
      inputs: { prompt: 'Hi' },
      clock,
      onEvent: (event) => events.push(event),
    });
    expect(outcome.status).toBe('finished');
    expect(events.length).toBeGreaterThan(1);
    expect(new Set(events.map((e) => e.timestamp))).toEqual(new Set(['2030-05-06T07:08:09.000Z']));
  });
});
