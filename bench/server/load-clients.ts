/** Load for the server benchmark, in its own process so the servers keep their cores. */
export interface LoadJob {
  /** Servers to spread clients over, round-robin. */
  bases: string[];
  headers: Record<string, string>;
  body: string;
  clients: number;
  /** Every n-th client streams (NDJSON) to time the first byte; 0: none does. */
  streamEvery: number;
  /** Stop after this long… */
  seconds: number;
  /** …or after this many runs, whichever comes first. */
  maxRuns?: number;
  /** A request not answered within this long counts as failed (default 30 s). */
  requestTimeoutMs?: number;
}

export interface LoadResult {
  latencies: number[];
  firstBytes: number[];
  failures: number;
  /** Requests with no complete answer in time, by kind. */
  timedOut: { sync: number; stream: number };
  seconds: number;
}

async function run(job: LoadJob): Promise<LoadResult> {
  const latencies: number[] = [];
  const firstBytes: number[] = [];
  let failures = 0;
  const timedOut = { sync: 0, stream: 0 };
  let started = 0;
  const end = performance.now() + job.seconds * 1000;
  const more = (): boolean =>
    performance.now() < end && (job.maxRuns === undefined || started < job.maxRuns);
  const client = async (index: number): Promise<void> => {
    const base = job.bases[index % job.bases.length] ?? '';
    while (more()) {
      started++;
      const begun = performance.now();
      const stream = job.streamEvery > 0 && index % job.streamEvery === 0;
      try {
        const response = await fetch(`${base}/api/agent/run${stream ? '/stream' : ''}`, {
          method: 'POST',
          headers: job.headers,
          body: job.body,
          signal: AbortSignal.timeout(job.requestTimeoutMs ?? 30_000),
        });
        if (stream && response.body) {
          const reader = response.body.getReader();
          let first = true;
          for (;;) {
            const { done } = await reader.read();
            if (first) firstBytes.push(performance.now() - begun);
            first = false;
            if (done) break;
          }
        } else {
          await response.arrayBuffer();
        }
        if (!response.ok) failures++;
        latencies.push(performance.now() - begun);
      } catch (error) {
        failures++;
        if (error instanceof Error && error.name === 'TimeoutError')
          timedOut[stream ? 'stream' : 'sync']++;
      }
    }
  };
  const begun = performance.now();
  await Promise.all(Array.from({ length: job.clients }, (_, i) => client(i)));
  return {
    latencies,
    firstBytes,
    failures,
    timedOut,
    seconds: (performance.now() - begun) / 1000,
  };
}

process.on('message', (job: LoadJob) => {
  void run(job).then((result) => {
    // Exit only once the result is written: a large one would be cut off otherwise.
    process.send?.(result, () => process.exit(0));
  });
});
