import { useCallback, useMemo, useState } from 'react';
import { createApi } from '../api/api.js';
import { createInboxApi } from '../api/inbox-api.js';
import { createTrajectoryApi } from '../api/trajectory-api.js';
import { useAgents } from '../state/use-agents.js';
import { useInbox } from '../state/use-inbox.js';
import { useMe } from '../state/use-me.js';
import { threadPath, useRoute } from '../state/use-route.js';
import { useThreads } from '../state/use-threads.js';
import type { Theme } from '../state/use-theme.js';
import { AppHeader } from './app-header.js';
import { ChatView } from './chat-view.js';
import { GrantsView } from './grants-view.js';
import { InboxNav } from './inbox-nav.js';
import { InboxView } from './inbox-view.js';
import { RunTimeline } from './run-timeline.js';
import { ThreadList } from './thread-list.js';
import { TrajectoryView } from './trajectory-view.js';

interface Props {
  token: string;
  theme: Theme;
  onToggleTheme(): void;
  onSignOut(reason?: string): void;
}

/** Signed in: threads on the side, a chat or a run timeline in the middle. */
export function Workspace({ token, theme, onToggleTheme, onSignOut }: Props) {
  const api = useMemo(
    () => createApi(token, () => onSignOut('Your token was not accepted; sign in again.')),
    [token, onSignOut],
  );
  const recordings = useMemo(
    () =>
      createTrajectoryApi(token, () => onSignOut('Your token was not accepted; sign in again.')),
    [token, onSignOut],
  );
  const inboxApi = useMemo(
    () => createInboxApi(token, () => onSignOut('Your token was not accepted; sign in again.')),
    [token, onSignOut],
  );
  const [route, navigate] = useRoute();
  const threads = useThreads(api);
  const inbox = useInbox(inboxApi);
  const refreshThreads = threads.refresh;
  const refreshInbox = inbox.refresh;
  const onThreadsChanged = useCallback(() => {
    refreshThreads();
    refreshInbox();
  }, [refreshThreads, refreshInbox]);
  const agents = useAgents(api);
  const me = useMe(api);
  const [agent, setAgent] = useState('');
  const openThread = useCallback((id: string) => navigate(threadPath(id)), [navigate]);
  const activeThread = route.view === 'chat' ? route.threadId : undefined;

  return (
    <div className="app">
      <AppHeader
        theme={theme}
        onToggleTheme={onToggleTheme}
        onSignOut={() => onSignOut()}
        {...(me ? { user: me } : {})}
      />
      <div className="layout">
        <ThreadList
          threads={threads.threads}
          {...(threads.error ? { error: threads.error } : {})}
          {...(activeThread ? { activeId: activeThread } : {})}
          onOpen={openThread}
          onNew={() => navigate('/')}
          waiting={inbox.byThread}
          nav={
            <InboxNav
              waiting={inbox.approvals.length}
              more={inbox.more}
              {...(route.view === 'approvals' || route.view === 'grants'
                ? { current: route.view }
                : {})}
              navigate={navigate}
            />
          }
        />
        <main id="main" className="main" tabIndex={-1}>
          {route.view === 'approvals' ? (
            <InboxView
              api={inboxApi}
              inbox={inbox}
              navigate={navigate}
              onDecided={onThreadsChanged}
            />
          ) : route.view === 'grants' ? (
            <GrantsView api={inboxApi} />
          ) : route.view === 'trajectory' ? (
            <TrajectoryView api={recordings} runId={route.runId} navigate={navigate} />
          ) : route.view === 'run' ? (
            <>
              {/* The page a /v1 or MCP answer links to: the run's approvals come first. */}
              <InboxView
                key={route.runId}
                api={inboxApi}
                inbox={inbox}
                navigate={navigate}
                runId={route.runId}
                onDecided={onThreadsChanged}
              />
              <RunTimeline
                api={api}
                recordings={recordings}
                runId={route.runId}
                navigate={navigate}
              />
            </>
          ) : (
            <ChatView
              api={api}
              {...(route.threadId ? { threadId: route.threadId } : {})}
              agents={agents}
              agent={agent}
              onAgentChange={setAgent}
              navigate={navigate}
              onThreadsChanged={onThreadsChanged}
            />
          )}
        </main>
      </div>
    </div>
  );
}
