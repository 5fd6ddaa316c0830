/** Short human durations: 850 ms, 1.2 s, 3 min 4 s. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export const formatTime = (iso: string): string => new Date(iso).toLocaleTimeString();

export const formatTokens = (n: number): string => `${n.toLocaleString()} tokens`;

/** `$0.0031`; the server's prices are estimates from list prices. */
export const formatCost = (usd: number): string =>
  usd === 0 ? '$0' : usd < 0.01 ? `$${usd.toPrecision(2)}` : `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
