import { parentPort, workerData } from 'node:worker_threads';

/** Load for the server benchmark, in its own thread so the server keeps its core. */
export interface LoadJob {
  base: string;
  headers: Record<string, string>;
  body: string;
  clients: number;
  seconds: number;
}

export interface LoadResult {
  latencies: number[];
  firstBytes: number[];
  failures: number;
  seconds: number;
}

async function run(job: LoadJob): Promise<LoadResult> {
  const latencies: number[] = [];
  const firstBytes: number[] = [];
  let failures = 0;
  const end = performance.now() + job.seconds * 1000;
  const client = async (index: number): Promise<void> => {
    while (performance.now() < end) {
      const started = performance.now();
      const stream = index % 5 === 0; // every fifth client streams, to time the first NDJSON byte
      const response = await fetch(`${job.base}/api/agent/run${stream ? '/stream' : ''}`, {
        method: 'POST',
        headers: job.headers,
        body: job.body,
      });
      if (stream && response.body) {
        const reader = response.body.getReader();
        let first = true;
        for (;;) {
          const { done } = await reader.read();
          if (first) firstBytes.push(performance.now() - started);
          first = false;
          if (done) break;
        }
      } else {
        await response.arrayBuffer();
      }
      if (!response.ok) failures++;
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: job.clients }, (_, i) => client(i)));
  return { latencies, firstBytes, failures, seconds: (performance.now() - started) / 1000 };
}

if (parentPort) {
  const port = parentPort;
  void run(workerData as LoadJob).then((result) => port.postMessage(result));
}
