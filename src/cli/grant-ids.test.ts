import { describe, expect, it } from 'vitest';
import { matchGrantId, shortGrantIds } from './grant-ids.js';

const a = { id: '019abc12-3456-7000-8000-00000000aaaa' };
const b = { id: '019abc12-3456-7000-8000-00000001aaaa' };
const c = { id: '019abc12-3456-7000-8000-0000000bbbbb' };

describe('grant ids', () => {
  it('shows the shortest unique tail of at least 8 characters', () => {
    const d = { id: '019abc12-3456-7000-8000-00010000aaaa' };
    expect([...shortGrantIds([a.id, b.id, c.id]).values()]).toEqual([
      '0000aaaa',
      '0001aaaa',
      '000bbbbb',
    ]);
    expect(shortGrantIds([a.id, d.id]).get(d.id)).toBe('10000aaaa');
    expect(shortGrantIds([a.id, d.id]).get(a.id)).toBe('00000aaaa');
  });

  it('matches the full id, a unique head or tail; refuses shared or short parts', () => {
    expect(matchGrantId([a, b, c], a.id)).toEqual({ kind: 'one', grant: a });
    expect(matchGrantId([a, b, c], '0bbbbb')).toEqual({ kind: 'one', grant: c });
    expect(matchGrantId([a, b, c], '01aaaa')).toEqual({ kind: 'one', grant: b });
    expect(matchGrantId([a, b, c], '019abc12')).toMatchObject({ kind: 'ambiguous' });
    expect(matchGrantId([a, b, c], 'aaaa')).toEqual({ kind: 'too_short' });
    expect(matchGrantId([a, b, c], 'ffffff')).toEqual({ kind: 'none' });
  });
});
