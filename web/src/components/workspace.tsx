import { useCallback, useMemo, useState } from 'react';
import { createApi } from '../api/api.js';
import { createTrajectoryApi } from '../api/trajectory-api.js';
import { useAgents } from '../state/use-agents.js';
import { useMe } from '../state/use-me.js';
import { threadPath, useRoute } from '../state/use-route.js';
import { useThreads } from '../state/use-threads.js';
import type { Theme } from '../state/use-theme.js';
import { AppHeader } from './app-header.js';
import { ChatView } from './chat-view.js';
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
  const [route, navigate] = useRoute();
  const threads = useThreads(api);
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
        />
        <main id="main" className="main" tabIndex={-1}>
          {route.view === 'trajectory' ? (
            <TrajectoryView api={recordings} runId={route.runId} navigate={navigate} />
          ) : route.view === 'run' ? (
            <RunTimeline
              api={api}
              recordings={recordings}
              runId={route.runId}
              navigate={navigate}
            />
          ) : (
            <ChatView
              api={api}
              {...(route.threadId ? { threadId: route.threadId } : {})}
              agents={agents}
              agent={agent}
              onAgentChange={setAgent}
              navigate={navigate}
              onThreadsChanged={threads.refresh}
            />
          )}
        </main>
      </div>
    </div>
  );
}
