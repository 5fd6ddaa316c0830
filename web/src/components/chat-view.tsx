import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Api } from '../api/api.js';
import type { AgentView, ThreadMessage } from '../api/wire-types.js';
import { decisionsByMessage } from '../state/stored-trace.js';
import { useChat } from '../state/use-chat.js';
import { useDraft } from '../state/use-draft.js';
import { threadPath, type Navigate } from '../state/use-route.js';
import { chosenAgent } from '../state/agent-choice.js';
import { inputsText, takesInputs } from '../state/input-values.js';
import { readForkNote } from '../state/fork-notes.js';
import { replyOutcome } from '../state/run-outcome.js';
import { pickerValue, replyName, threadAgent } from '../state/thread-agent.js';
import { useRunSummaries } from '../state/use-run-summaries.js';
import { withUnansweredRuns } from '../state/unanswered-runs.js';
import { ForkBanner } from './fork-banner.js';
import { ScriptedNote } from './scripted-note.js';
import { ThreadNotFound } from './thread-not-found.js';
import { AgentPicker } from './agent-picker.js';
import { ExamplePrompts } from './example-prompts.js';
import { InputForm } from './input-form.js';
import { RecordToggle } from './record-toggle.js';
import { ApprovalCard } from './approval-card.js';
import { LiveRunView } from './live-run-view.js';
import { RunTreePanel } from './run-tree-panel.js';
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
  const draft = useDraft(threadId);
  const [record, setRecord] = useState(false);
  const recording = record ? { record: true } : {};
  const sendDraft = () => {
    const text = draft.text.trim();
    if (text) chat.send(text, draft.clearer(), recording);
  };
  const chosen = chosenAgent(agents, agent);
  const live = chat.live;
  // The live view already shows the prompt of the run it streams.
  const runs = useRunSummaries(api, chat.thread);
  const stored = (chat.thread?.messages ?? []).filter(
    (m) => !(live?.prompt && m.role === 'user' && m.runId && m.runId === live.trace.runId),
  );
  // A run that failed before it could reply still shows why, in its thread.
  const messages = withUnansweredRuns(stored, runs);
  const withTrace = lastOfRun(messages);
  // The live view draws the steps of the run it streams; its older message does not repeat them.
  const streaming = live && !live.done ? live.trace.runId : undefined;
  const decisions = decisionsByMessage(messages, chat.thread?.runs);
  const pending = chat.pendingApprovals;
  // The tree of the run going on once it has a subagent (a lone agent has no tree to draw, and
  // each step would read the whole run again for nothing), or of the one waiting for a decision
  // after a reload.
  const treeRun = live
    ? live.trace.steps.some((s) => s.subagent === true || s.depth > 0)
      ? live.trace.runId
      : undefined
    : pending[0]?.runId;
  const treeTick = [
    live?.trace.steps.map((s) => s.state).join(),
    live?.trace.status,
    live?.done,
    pending.length,
  ].join('|');
  // Keep the newest text, step or card in view as the run goes on.
  const end = useRef<HTMLDivElement>(null);
  const liveText = chat.live?.trace.text;
  const liveSteps = chat.live?.trace.steps.length;
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [messages.length, pending.length, liveText, liveSteps]);
  // A thread keeps its agent: opening or reloading it shows (and sends to) the agent it ran.
  const agentOfThread = threadAgent(chat.thread, runs);
  useEffect(() => {
    if (threadId && agentOfThread && agents.length > 0)
      onAgentChange(pickerValue(agents, agentOfThread));
  }, [threadId, agentOfThread, agents, onAgentChange]);
  const fork = useMemo(
    () => (threadId ? readForkNote(window.localStorage, threadId) : undefined),
    [threadId],
  );
  const models = messages.flatMap((m) => (m.runId && runs[m.runId] ? [runs[m.runId]?.model] : []));
  const title = chat.missing
    ? 'Thread not found'
    : (chat.thread?.thread.title ?? (threadId ? 'Loading…' : 'New thread'));
  if (chat.missing) return <ThreadNotFound title={title} navigate={navigate} />;

  return (
    <section className="chat" aria-labelledby="chat-title">
      <div className="chat-head">
        <h1 id="chat-title">{title}</h1>
        <AgentPicker
          agents={agents}
          value={agent}
          locked={threadId !== undefined}
          onChange={onAgentChange}
        />
        <RecordToggle checked={record} onChange={setRecord} />
      </div>
      {fork && <ForkBanner note={fork} navigate={navigate} />}
      <ScriptedNote models={models} />
      {!threadId && messages.length === 0 && !chat.live && (
        <ExamplePrompts {...(chosen ? { agent: chosen } : {})} onPick={draft.setText} />
      )}
      <ol className="messages" aria-label="Messages">
        {messages.map((message) => (
          <MessageItem
            key={message.id}
            message={message}
            {...(message.runId && (runs[message.runId] || agentOfThread)
              ? // A thread keeps one agent: its name stands in until the run's details arrive.
                { agentName: replyName(agents, runs[message.runId]?.agent ?? agentOfThread) }
              : {})}
            {...(message.runId && withTrace.has(message.id) && runs[message.runId]
              ? { outcome: replyOutcome(runs[message.runId] ?? { status: '' }) }
              : {})}
            {...(message.runId &&
            message.runId !== streaming &&
            withTrace.has(message.id) &&
            chat.traces[message.runId]
              ? { trace: chat.traces[message.runId] }
              : {})}
            {...(decisions.has(message.id) ? { decisions: decisions.get(message.id) } : {})}
            showRunLink={withTrace.has(message.id)}
            navigate={navigate}
          />
        ))}
        {chat.live && <LiveRunView live={chat.live} agentName={replyName(agents, chosen?.name)} />}
      </ol>
      {treeRun && <RunTreePanel api={api} runId={treeRun} tick={treeTick} />}
      {pending.length > 0 && (
        <div className="approvals" role="region" aria-label="Pending approvals" aria-live="polite">
          {pending.map((approval) => (
            <ApprovalCard
              key={approval.approvalId}
              approval={approval}
              busy={chat.deciding === approval.approvalId}
              disabled={chat.busy}
              {...(chat.decisionError?.approvalId === approval.approvalId
                ? { error: chat.decisionError.text }
                : {})}
              onDecide={(decision, feedback) => chat.decide(approval, decision, feedback)}
            />
          ))}
        </div>
      )}
      {takesInputs(chosen) ? (
        <div className="composer composer-form">
          {chat.notice && (
            <NoticeBanner
              // The form keeps its values: sending again is pressing Run again.
              notice={{
                kind: chat.notice.kind,
                text: chat.notice.text,
                ...(chat.notice.retry === 'reload' ? { retry: 'reload' as const } : {}),
              }}
              onRetry={chat.reload}
              onDismiss={chat.dismissNotice}
            />
          )}
          <InputForm
            agent={chosen}
            busy={chat.busy || chat.sending}
            onSubmit={(inputs) => chat.send(inputsText(inputs), () => {}, { inputs, ...recording })}
          />
        </div>
      ) : (
        <PromptForm
          value={draft.text}
          onChange={draft.setText}
          busy={chat.busy}
          sending={chat.sending}
          onSend={sendDraft}
          notice={
            chat.notice && (
              <NoticeBanner
                notice={chat.notice}
                onRetry={chat.notice.retry === 'send' ? sendDraft : chat.reload}
                onDismiss={chat.dismissNotice}
              />
            )
          }
        />
      )}
      <div ref={end} />
    </section>
  );
}
