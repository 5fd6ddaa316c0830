import { useState } from 'react';
import type { GrantView, InboxApi } from '../api/inbox-api.js';
import { failureText } from '../state/failure-text.js';
import { useGrants } from '../state/use-grants.js';

interface Props {
  api: InboxApi;
}

const whom = (grant: GrantView): string => (grant.recipient === '*' ? 'anyone' : grant.recipient);

/** The person's "always allow" grants: which agent may do what for whom unasked, each undoable. */
export function GrantsView({ api }: Props) {
  const grants = useGrants(api);
  const [revoking, setRevoking] = useState<string>();
  const [status, setStatus] = useState<{ text: string; error?: boolean }>();

  const revoke = async (grant: GrantView) => {
    setRevoking(grant.id);
    try {
      await api.revokeGrant(grant.id);
      setStatus({
        text: `Revoked: ${grant.agent} will ask before ${grant.tool} reaches ${whom(grant)} again.`,
      });
    } catch (e) {
      setStatus({ text: failureText(e, 'load').text, error: true });
    } finally {
      setRevoking(undefined);
      grants.refresh();
    }
  };

  return (
    <section className="grants" aria-labelledby="grants-title">
      <h1 id="grants-title">Always allowed</h1>
      <p className="muted">
        What you allowed with “Always allow for this recipient”: each agent may make these calls
        without asking you. Revoke one and the agent asks again next time.
      </p>
      {status && (
        <p
          className={status.error ? 'notice notice-error' : 'notice'}
          role={status.error ? 'alert' : 'status'}
        >
          {status.text}
        </p>
      )}
      {grants.error && (
        <p className="notice notice-error" role="alert">
          {grants.error}
        </p>
      )}
      {!grants.loaded && <p role="status">Loading…</p>}
      {grants.loaded && grants.grants.length === 0 && !grants.error && (
        <p className="muted">You have not always-allowed anything.</p>
      )}
      {grants.grants.length > 0 && (
        <table className="grants-table">
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">Tool</th>
              <th scope="col">Recipient</th>
              <th scope="col">Set</th>
              <th scope="col">
                <span className="visually-hidden">Revoke</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {grants.grants.map((grant) => (
              <tr key={grant.id}>
                <td>{grant.agent}</td>
                <td>
                  <code>{grant.tool}</code>
                </td>
                <td>{whom(grant)}</td>
                <td>
                  <time dateTime={grant.createdAt}>
                    {new Date(grant.createdAt).toLocaleString()}
                  </time>
                  {grant.setBy ? ` by ${grant.setBy}` : ''}
                </td>
                <td>
                  <button
                    type="button"
                    className="danger"
                    disabled={revoking !== undefined}
                    aria-label={`Revoke: ${grant.agent} may ${grant.tool} ${whom(grant)}`}
                    onClick={() => void revoke(grant)}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
