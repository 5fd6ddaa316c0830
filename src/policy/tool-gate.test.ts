import { describe, expect, it } from 'vitest';
import { passGate, type GatePolicy } from './tool-gate.js';
import { GMAIL, READ } from './test-support.js';

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
});
