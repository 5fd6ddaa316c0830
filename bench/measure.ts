/**
 * Runs `fn` for `windowMs` and returns the CPU time (user + system) per call
 * in ms: on a machine others share, wall time also counts waiting for a core.
 */
export async function cpuPerCall(fn: () => Promise<unknown>, windowMs: number): Promise<number> {
  let calls = 0;
  const start = performance.now();
  const cpu = process.cpuUsage();
  while (performance.now() - start < windowMs) {
    await fn();
    calls++;
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / calls;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Runs `fn` until `minMs` have passed (after warm-up) and returns mean ms per call. */
export async function timePerCall(
  fn: () => Promise<unknown>,
  minMs = 1500,
  warmup = 200,
): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    await fn();
    calls++;
  }
  return (performance.now() - start) / calls;
}

export function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('Run the benchmark with node --expose-gc (npm run bench does).');
  collect();
  collect();
}

export function heapUsed(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

export function ratio(value: number, baseline: number): string {
  return `${(value / baseline).toFixed(1)}×`;
}

/** `goal ≤ 5×: met` / `goal ≤ 5×: NOT met`, so every figure is read against its goal. */
export function againstGoal(value: number, goal: number, unit: string): string {
  return `goal ≤ ${goal}${unit}: ${value <= goal ? 'met' : 'NOT met'}`;
}
