import type { ChatNotice } from '../state/use-chat.js';

interface Props {
  notice: ChatNotice;
  onRetry(): void;
  onDismiss(): void;
}

const RETRY_LABEL: Record<NonNullable<ChatNotice['retry']>, string> = {
  send: 'Retry sending',
  reload: 'Retry',
};

export function NoticeBanner({ notice, onRetry, onDismiss }: Props) {
  return (
    <div
      className={`notice notice-${notice.kind}`}
      role={notice.kind === 'error' ? 'alert' : 'status'}
    >
      <span className="notice-text">{notice.text}</span>
      <span className="notice-actions">
        {notice.retry && (
          <button type="button" onClick={onRetry}>
            {RETRY_LABEL[notice.retry]}
          </button>
        )}
        <button type="button" className="ghost" onClick={onDismiss} aria-label="Dismiss message">
          ✕
        </button>
      </span>
    </div>
  );
}
