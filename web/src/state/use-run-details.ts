import { useCallback, useEffect, useState } from 'react';
import type { Api } from '../api/api.js';
import type { AuditEntry, AuditVerification, RunView } from '../api/wire-types.js';
import { failureText } from './failure-text.js';

export interface RunDetails {
  run?: RunView;
  audit?: AuditEntry[];
  verification?: AuditVerification;
  error?: string;
  /** Loads everything again (after a failure). */
  reload(): void;
}

/** A run's events, its audit entries and the audit chain's status, loaded together. */
export function useRunDetails(api: Api, runId: string): RunDetails {
  const [details, setDetails] = useState<Omit<RunDetails, 'reload'>>({});
  const [key, setKey] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    setDetails({});
    const load = async () => {
      try {
        const [run, audit, verification] = await Promise.all([
          api.getRun(runId, signal),
          api.audit(runId, signal),
          api.verifyAudit(signal),
        ]);
        setDetails({ run, audit, verification });
      } catch (e) {
        if (!signal.aborted) setDetails({ error: failureText(e, 'load').text });
      }
    };
    void load();
    return () => controller.abort();
  }, [api, runId, key]);
  const reload = useCallback(() => setKey((k) => k + 1), []);
  return { ...details, reload };
}
