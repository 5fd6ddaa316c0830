import { describe, expect, it } from 'vitest';
import type { User } from '../../store/types.js';
import { tokenCache } from './token-cache.js';

const ada: User = { id: 'u1', name: 'ada', createdAt: '' };

function counting(valid: Set<string>) {
  const asked: string[] = [];
  return {
    asked,
    auth: {
      findUserByToken: (token: string) => {
        asked.push(token);
        return Promise.resolve(valid.has(token) ? ada : undefined);
      },
    },
  };
}

describe('token cache', () => {
  it('asks the store once per token within the TTL, and again after it (a revocation shows)', async () => {
    let time = 0;
    const valid = new Set(['t1']);
    const store = counting(valid);
    const cache = tokenCache(store, { ttlMs: 1000, max: 10, now: () => time });
    expect(await cache.find('k1', 't1')).toEqual(ada);
    expect(await cache.find('k1', 't1')).toEqual(ada);
    expect(store.asked).toEqual(['t1']);
    valid.delete('t1');
    time = 1001;
    expect(await cache.find('k1', 't1')).toBeUndefined();
    expect(store.asked).toEqual(['t1', 't1']);
  });

  it('never caches a failure, and keeps at most `max` tokens', async () => {
    const valid = new Set<string>();
    const store = counting(valid);
    const cache = tokenCache(store, { ttlMs: 60_000, max: 2, now: () => 0 });
    expect(await cache.find('k1', 't1')).toBeUndefined();
    valid.add('t1').add('t2').add('t3');
    expect(await cache.find('k1', 't1')).toEqual(ada);
    await cache.find('k2', 't2');
    await cache.find('k3', 't3'); // pushes t1 out
    await cache.find('k1', 't1');
    expect(store.asked.filter((t) => t === 't1')).toHaveLength(3);
  });
});
