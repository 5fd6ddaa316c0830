import { useEffect, useState } from 'react';

/** A value that changes every `ms` while `active`: a clock for polling hooks. */
export function useTicker(active: boolean, ms: number): string {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setCount((n) => n + 1), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
  return String(count);
}
