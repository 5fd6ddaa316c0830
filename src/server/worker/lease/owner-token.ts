import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/** This process's worker id: host, pid and a random tail (a restarted pid is another worker). */
export const workerOwner = (): string => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** A lease's owner token: unique per lease, so a re-lease by this same worker is another owner. */
export const leaseOwner = (worker: string): string => `${worker}:${randomUUID().slice(0, 8)}`;
