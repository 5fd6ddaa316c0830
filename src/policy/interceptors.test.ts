import { describe, expect, it } from 'vitest';
import {
  applyVerdict,
  runAfterInterceptors,
  runBeforeInterceptors,
  type BeforeVerdict,
  type InterceptedCall,
  type ToolCallOutcome,
  type ToolInterceptor,
} from './interceptors.js';

const call: InterceptedCall = {
  runId: 'r1',
  callId: 'c1',
  tool: 'gmail_send',
  args: { to: ['a@x.com'] },
  sideEffect: true,
};
const signal = new AbortController().signal;

/** An interceptor that answers `verdict` and records that it ran. */
function answering(
  name: string,
  verdict: BeforeVerdict | (() => never),
  ran: string[],
): ToolInterceptor {
  return {
    name,
    before: async () => {
      ran.push(name);
      await Promise.resolve();
      return typeof verdict === 'function' ? verdict() : verdict;
    },
  };
}

describe('runBeforeInterceptors', () => {
  const boom = (): never => {
    throw new Error('secret payload a@x.com');
  };
  it.each<[string, (BeforeVerdict | (() => never))[], unknown]>([
    ['no interceptors allow', [], { kind: 'allow' }],
    ['all allow', ['allow', 'allow'], { kind: 'allow' }],
    [
      'one confirm beats allows',
      ['allow', { confirm: 'check A' }, 'allow'],
      { kind: 'confirm', reasons: ['check A'] },
    ],
    [
      'confirm reasons are all kept, in order',
      [{ confirm: 'A' }, { confirm: 'B' }],
      { kind: 'confirm', reasons: ['A', 'B'] },
    ],
    [
      'deny beats confirm (deny last)',
      [{ confirm: 'A' }, { deny: 'no' }],
      { kind: 'deny', reasons: ['no'] },
    ],
    [
      'deny beats confirm (deny first)',
      [{ deny: 'no' }, { confirm: 'A' }, 'allow'],
      { kind: 'deny', reasons: ['no'] },
    ],
    [
      'every deny reason is kept',
      [{ deny: 'x' }, 'allow', { deny: 'y' }],
      { kind: 'deny', reasons: ['x', 'y'] },
    ],
    [
      'a throwing interceptor denies with a safe reason',
      ['allow', boom],
      { kind: 'deny', reasons: ['The check "i1" failed, so the call is refused.'] },
    ],
  ])('%s', async (_name, verdicts, expected) => {
    const ran: string[] = [];
    const interceptors = verdicts.map((v, i) => answering(`i${i}`, v, ran));
    await expect(runBeforeInterceptors(interceptors, call, signal)).resolves.toEqual(expected);
    // No short-circuit: every interceptor saw the call.
    expect(ran.sort()).toEqual(interceptors.map((i) => i.name).sort());
  });

  it('runs every interceptor even after an early deny, and skips ones without before()', async () => {
    const seen: string[] = [];
    const result = await runBeforeInterceptors(
      [
        { name: 'first', before: () => (seen.push('first'), { deny: 'stop' }) },
        { name: 'observer-only', after: () => undefined },
        { name: 'audit', before: () => (seen.push('audit'), 'allow') },
      ],
      call,
      signal,
    );
    expect(result).toEqual({ kind: 'deny', reasons: ['stop'] });
    expect(seen).toEqual(['first', 'audit']);
  });

  it('treats a synchronous throw and a nonsense answer as deny, never leaking the error', async () => {
    const result = await runBeforeInterceptors(
      [
        {
          name: 'sync',
          before: () => {
            throw new Error('a@x.com');
          },
        },
        { name: 'junk', before: () => ({ maybe: true }) as unknown as BeforeVerdict },
      ],
      call,
      signal,
    );
    expect(result.kind).toBe('deny');
    expect(JSON.stringify(result)).not.toContain('a@x.com');
    expect(result).toEqual({
      kind: 'deny',
      reasons: [
        'The check "sync" failed, so the call is refused.',
        'The check "junk" gave no valid answer, so the call is refused.',
      ],
    });
  });

  it('passes the call and the signal to each interceptor', async () => {
    const got: unknown[] = [];
    await runBeforeInterceptors(
      [{ name: 'x', before: (c, s) => (got.push(c, s), 'allow') }],
      call,
      signal,
    );
    expect(got).toEqual([call, signal]);
  });
});

describe('runAfterInterceptors', () => {
  it.each<[string, ToolCallOutcome]>([
    ['a success', { status: 'completed', result: { messageId: 'm' }, durationMs: 5 }],
    ['a failure', { status: 'failed', error: new Error('smtp down') }],
    ['a policy denial', { status: 'denied', reason: 'no' }],
    ['a rejection', { status: 'rejected', feedback: 'not now' }],
  ])('tells every observer about %s, even when one throws', async (_name, outcome) => {
    const seen: [string, ToolCallOutcome][] = [];
    const errors: string[] = [];
    await runAfterInterceptors(
      [
        { name: 'a', after: (_c, o) => void seen.push(['a', o]) },
        { name: 'broken', after: () => Promise.reject(new Error('observer bug')) },
        {
          name: 'sync-broken',
          after: () => {
            throw new Error('sync bug');
          },
        },
        {
          name: 'b',
          after: async (_c, o) => {
            await Promise.resolve();
            seen.push(['b', o]);
          },
        },
      ],
      call,
      outcome,
      (name) => errors.push(name),
    );
    expect(seen).toEqual([
      ['a', outcome],
      ['b', outcome],
    ]);
    expect(errors.sort()).toEqual(['broken', 'sync-broken']);
  });

  it('swallows errors from the error reporter too', async () => {
    await expect(
      runAfterInterceptors(
        [
          {
            name: 'x',
            after: () => {
              throw new Error('x');
            },
          },
        ],
        call,
        { status: 'completed', result: null },
        () => {
          throw new Error('reporter');
        },
      ),
    ).resolves.toBeUndefined();
  });
});

describe('applyVerdict', () => {
  it.each([
    [{ mode: 'allow' }, { kind: 'allow' }, { mode: 'allow' }],
    [
      { mode: 'allow' },
      { kind: 'confirm', reasons: ['A', 'B'] },
      { mode: 'require_approval', reason: 'A B' },
    ],
    [
      { mode: 'require_approval', reason: 'P' },
      { kind: 'confirm', reasons: ['A'] },
      { mode: 'require_approval', reason: 'P A' },
    ],
    [
      { mode: 'require_approval', reason: 'P' },
      { kind: 'deny', reasons: ['D'] },
      { mode: 'deny', reason: 'D' },
    ],
    [{ mode: 'deny', reason: 'P' }, { kind: 'allow' }, { mode: 'deny', reason: 'P' }],
    [
      { mode: 'deny', reason: 'P' },
      { kind: 'deny', reasons: ['D'] },
      { mode: 'deny', reason: 'P' },
    ],
  ] as const)('%j + %j → %j', (decision, verdict, expected) => {
    expect(applyVerdict(decision, { ...verdict } as never)).toEqual(expected);
  });
});
