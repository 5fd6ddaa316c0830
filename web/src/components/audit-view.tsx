import type { AuditEntry, AuditVerification } from '../api/wire-types.js';
import { formatTime } from '../state/format.js';

interface Props {
  entries: AuditEntry[];
  verification?: AuditVerification;
}

function VerifyStatus({ verification }: { verification?: AuditVerification }) {
  if (!verification) return <p className="muted">Chain status unknown.</p>;
  if (verification.ok)
    return (
      <p className="notice notice-ok" role="status">
        ✓ Audit chain verified ({verification.count} entries, hashes intact).
      </p>
    );
  return (
    <p className="notice notice-error" role="alert">
      ✕ Audit chain broken at entry {verification.brokenAt} (
      {verification.reason.replace(/_/g, ' ')}).
    </p>
  );
}

/** The run's audit entries: hashes and codes only, never arguments. */
export function AuditView({ entries, verification }: Props) {
  return (
    <section aria-labelledby="audit-title" className="audit">
      <h2 id="audit-title">Audit</h2>
      <VerifyStatus {...(verification ? { verification } : {})} />
      {entries.length === 0 ? (
        <p className="muted">No audit entries for this run.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Audit entries of this run</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Time</th>
                <th scope="col">Tool</th>
                <th scope="col">Policy</th>
                <th scope="col">Execution</th>
                <th scope="col">Message</th>
                <th scope="col">Hash</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td>{entry.seq}</td>
                  <td className="nowrap">{formatTime(entry.createdAt)}</td>
                  <td>{entry.toolName ?? '–'}</td>
                  <td>{entry.policyDecision ?? '–'}</td>
                  <td>
                    {entry.executionStatus ?? '–'}
                    {entry.errorCode ? ` (${entry.errorCode})` : ''}
                  </td>
                  <td className="audit-message">{entry.message}</td>
                  <td>
                    <code title={entry.hash}>{entry.hash.slice(0, 10)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
