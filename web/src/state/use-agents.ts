import { useEffect, useState } from 'react';
import type { Api } from '../api/api.js';
import type { AgentView } from '../api/wire-types.js';

/** The agents the server found; an empty list keeps the picker on the default. */
export function useAgents(api: Api): AgentView[] {
  const [agents, setAgents] = useState<AgentView[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    const load = async () => {
      try {
        setAgents(await api.listAgents(controller.signal));
      } catch {
        // The picker is optional: without the list the server's default agent answers.
      }
    };
    void load();
    return () => controller.abort();
  }, [api]);
  return agents;
}
