import { useCallback, useEffect, useRef } from 'react';
import type { Api } from '../api/api.js';
import type { AgentView, ThreadMessage } from '../api/wire-types.js';
import { useChat } from '../state/use-chat.js';
import { threadPath, type Navigate } from '../state/use-route.js';
import { AgentPicker } from './agent-picker.js';
import { ApprovalCard } from './approval-card.js';
import { LiveRunView } from './live-run-view.js';
import { MessageItem } from './message-item.js';
import { NoticeBanner } from './notice-banner.js';
import { PromptForm } from './prompt-form.js';

interface Props {
  api: Api;
  threadId?: string;
  agents: AgentView[];
  agent: string;
  onAgentChange(name: string): void;
  navigate: Navigate;
  onThreadsChanged(): void;
}

/** The last assistant message of each run carries that run's steps and timeline link. */
function lastOfRun(messages: ThreadMessage[]): Set<string> {
  const last = new Map<string, string>();
  for (const m of messages) if (m.role === 'assistant' && m.runId) last.set(m.runId, m.id);
  return new Set(last.values());
}

export function ChatView(props: Props) {
  const { api, threadId, agents, agent, onAgentChange, navigate, onThreadsChanged } = props;
  const onThreadCreated = useCallback((id: string) => navigate(threadPath(id)), [navigate]);
  const chat = useChat({
    api,
    ...(threadId ? { threadId } : {}),
    ...(agent ? { agent } : {}),
    onThreadCreated,
    onThreadsChanged,
  });
  const live = chat.live;
  // The live view already shows the prompt of the run it streams.
  const messages = (chat.thread?.messages ?? []).filter(
    (m) => !(live?.prompt && m.role === 'user' && m.runId && m.runId === live.trace.runId),
  );
  const withTrace = lastOfRun(messages);
  const pending = chat.thread?.pendingApprovals ?? [];
  // Keep the newest text, step or card in view as the run goes on.
  const end = useRef<HTMLDivElement>(null);
  const liveText = chat.live?.trace.text;
  const liveSteps = chat.live?.trace.steps.length;
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [messages.length, pending.length, liveText, liveSteps]);
  const title = chat.thread?.thread.title ?? (threadId ? 'Loading…' : 'New thread');

  return (
    <section className="chat" aria-labelledby="chat-title">
      <div className="chat-head">
        <h1 id="chat-title">{title}</h1>
        <AgentPicker agents={agents} value={agent} onChange={onAgentChange} />
      </div>
      {chat.notice && <NoticeBanner notice={chat.notice} onDismiss={chat.dismissNotice} />}
      <ol className="messages" aria-label="Messages">
        {messages.map((message) => (
          <MessageItem
            key={message.id}
            message={message}
            {...(message.runId && withTrace.has(message.id) && chat.traces[message.runId]
              ? { trace: chat.traces[message.runId] }
              : {})}
            showRunLink={withTrace.has(message.id)}
            navigate={navigate}
          />
        ))}
        {chat.live && <LiveRunView live={chat.live} />}
      </ol>
      {pending.length > 0 && (
        <div className="approvals" role="region" aria-label="Pending approvals" aria-live="polite">
          {pending.map((approval) => (
            <ApprovalCard
              key={approval.approvalId}
              approval={approval}
              busy={chat.busy && chat.live?.approvalId === approval.approvalId}
              disabled={chat.busy}
              onDecide={(decision, feedback) => chat.decide(approval, decision, feedback)}
            />
          ))}
        </div>
      )}
      <PromptForm busy={chat.busy} onSend={chat.send} />
      <div ref={end} />
    </section>
  );
}
