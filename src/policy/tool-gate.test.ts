import { describe, expect, it } from 'vitest';
import { passGate, type GatePolicy } from './tool-gate.js';
import { GMAIL, READ } from './testing/test-support.js';

describe('the gate', () => {
  it('looks up grants only for calls they can cover (side effects)', async () => {
    let lookups = 0;
    const policy: GatePolicy = {
      rules: [],
      sideEffects: 'on',
      trust: 'delegated',
      grants: () => {
        lookups++;
        return Promise.resolve([]);
      },
    };
    const signal = new AbortController().signal;
    const call = (tool: typeof GMAIL, args: Record<string, unknown>) =>
      passGate(policy, [], { runId: 'r', callId: 'c', tool, args }, [], signal);
    expect(await call(READ, { path: 'a.txt' })).toEqual({ mode: 'allow' });
    expect(lookups).toBe(0);
    expect((await call(GMAIL, { to: 'bob@example.com', subject: 's', body: 'b' })).mode).toBe(
      'require_approval',
    );
    expect(lookups).toBe(1);
  });

  it('a grant covers only the agent that earned it, and the allow names it', async () => {
    const grant = {
      tool: 'gmail_send',
      recipient: 'bob@example.com',
      agent: 'assistant',
      id: 'g1',
      createdAt: '2026-11-26T02:05:00.000Z',
    };
    const policy: GatePolicy = {
      rules: [],
      sideEffects: 'on',
      grants: () => Promise.resolve([grant]),
    };
    const signal = new AbortController().signal;
    const args = { to: 'bob@example.com', subject: 's', body: 'b' };
    const by = (agent: string) =>
      passGate(policy, [], { runId: 'r', callId: 'c', tool: GMAIL, args, agent }, [], signal);
    expect(await by('assistant')).toEqual({ mode: 'allow', grants: [grant] });
    expect((await by('mailer')).mode).toBe('require_approval');
  });

  it('an allow that needs no grant does not claim one', async () => {
    const policy: GatePolicy = {
      rules: [],
      sideEffects: 'on',
      trust: 'autonomous',
      grants: () => Promise.resolve([{ tool: 'gmail_send', recipient: '*', agent: 'a' }]),
    };
    const signal = new AbortController().signal;
    const args = { to: 'bob@example.com', subject: 's', body: 'b' };
    expect(
      await passGate(
        policy,
        [],
        { runId: 'r', callId: 'c', tool: GMAIL, args, agent: 'a' },
        [],
        signal,
      ),
    ).toEqual({ mode: 'allow' });
  });
});
