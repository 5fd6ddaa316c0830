/** A tiny bearer-token JSON client for tests that drive `cadre serve` over real HTTP. */
export interface TestClient {
  post(base: string, path: string, body: unknown, signal?: AbortSignal): Promise<Response>;
  get(base: string, path: string, signal?: AbortSignal): Promise<Response>;
  /** NDJSON lines of a whole streamed response. */
  lines(response: Response): Promise<Array<Record<string, unknown>>>;
}

export function testClient(token: string): TestClient {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return {
    post: (base, path, body, signal) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      }),
    get: (base, path, signal) =>
      fetch(`${base}${path}`, { headers, ...(signal ? { signal } : {}) }),
    async lines(response) {
      const text = await response.text();
      return text
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    },
  };
}

/** A seeded generator (mulberry32), so a failing random schedule can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
