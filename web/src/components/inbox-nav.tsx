import type { MouseEvent } from 'react';
import type { Navigate } from '../state/use-route.js';
import { APPROVALS_PATH, GRANTS_PATH } from '../state/use-route.js';

interface Props {
  /** Approvals waiting for the signed-in person. */
  waiting: number;
  /** More than `waiting` are pending. */
  more: boolean;
  current?: 'approvals' | 'grants';
  navigate: Navigate;
}

/** The sidebar's ways to what waits for the person, and to what they always allow. */
export function InboxNav({ waiting, more, current, navigate }: Props) {
  const go = (path: string) => (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(path);
  };
  const count = `${waiting}${more ? '+' : ''}`;
  return (
    <ul className="inbox-nav">
      <li>
        <a
          href={APPROVALS_PATH}
          aria-current={current === 'approvals' ? 'page' : undefined}
          onClick={go(APPROVALS_PATH)}
        >
          Approvals
          {waiting > 0 && (
            <span className="count-badge" aria-label={`${count} waiting`}>
              {count}
            </span>
          )}
        </a>
      </li>
      <li>
        <a
          href={GRANTS_PATH}
          aria-current={current === 'grants' ? 'page' : undefined}
          onClick={go(GRANTS_PATH)}
        >
          Always allowed
        </a>
      </li>
    </ul>
  );
}
