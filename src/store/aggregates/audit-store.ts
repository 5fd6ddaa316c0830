import type { AuditEntry, AuditInput, AuditVerification } from '../records.js';
import type { CallOptions } from './call-options.js';

export interface AuditFilter {
  runId?: string;
  after?: number;
  limit?: number;
}

/** The tamper-evident log: one hash chain shared by every process. */
export interface AuditStore {
  /** Appends one entry to the hash chain; concurrent appends from several processes form one chain. */
  append(entry: AuditInput, options?: CallOptions): Promise<AuditEntry>;
  list(filter?: AuditFilter, options?: CallOptions): Promise<AuditEntry[]>;
  /** Walks the whole chain: seq contiguity, prevHash links, each hash, and the stored head. */
  verify(options?: CallOptions): Promise<AuditVerification>;
}
