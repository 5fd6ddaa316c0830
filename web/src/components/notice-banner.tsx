import type { ChatNotice } from '../state/use-chat.js';

interface Props {
  notice: ChatNotice;
  onDismiss(): void;
}

export function NoticeBanner({ notice, onDismiss }: Props) {
  return (
    <div
      className={`notice notice-${notice.kind}`}
      role={notice.kind === 'error' ? 'alert' : 'status'}
    >
      <span>{notice.text}</span>
      <button type="button" className="ghost" onClick={onDismiss} aria-label="Dismiss message">
        ✕
      </button>
    </div>
  );
}
