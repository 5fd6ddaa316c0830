import { NotFoundError } from '../../errors/cadre-error.js';
import {
  definitionFromSnapshot,
  snapshotDefinition,
} from '../../definition/definition-snapshot.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { Run } from '../../store/types.js';
import {
  SERVER_DEFAULT_MAX_TURNS,
  type PickedAgent,
  type ServerContext,
} from './server-context.js';

/**
 * The agent a request names, or the server's default (also by its own name,
 * unless an agent folder has one of that name); the chat 3-turn limit
 * unless the agent sets its own.
 */
function agentFor(
  ctx: Pick<ServerContext, 'agents' | 'defaultAgent'>,
  name: string | undefined,
): AgentDefinition {
  let definition = ctx.defaultAgent;
  const entry = name ? ctx.agents.get(name) : undefined;
  if (name && (entry || name !== ctx.defaultAgent.name)) {
    if (entry?.kind !== 'definition') throw new NotFoundError(`No agent named '${name}'.`);
    definition = entry.definition;
  }
  if (definition.runConfig?.max_turns !== undefined) return definition;
  return {
    ...definition,
    runConfig: { ...definition.runConfig, max_turns: SERVER_DEFAULT_MAX_TURNS },
  };
}

/**
 * The definition a paused run resumes with: the live one only if it still
 * hashes the same, else the snapshot the run started with. Editing a file
 * never changes a paused run.
 */
export async function pinnedDefinition(ctx: ServerContext, run: Run): Promise<AgentDefinition> {
  try {
    const live = await ctx.pickAgent(run.agent === ctx.defaultAgent.name ? undefined : run.agent);
    if (live.hash === run.definitionHash) return live.definition;
  } catch {
    // The agent is gone: the snapshot still runs it.
  }
  const snapshot = await ctx.store.runs.getDefinition(run.definitionHash);
  if (snapshot === undefined)
    throw new Error(`The definition this run started with (${run.definitionHash}) is not stored.`);
  return definitionFromSnapshot(snapshot as Parameters<typeof definitionFromSnapshot>[0]);
}

export type { PickedAgent };

/**
 * Picks agents by name (the server's default without one) and prepares each
 * once: the registry is fixed for the life of the process, and snapshotting
 * and hashing a definition on every request is measurable.
 */
export function agentPicker(
  ctx: Pick<ServerContext, 'agents' | 'defaultAgent'>,
): (name: string | undefined) => Promise<PickedAgent> {
  const prepared = new Map<string, Promise<PickedAgent>>();
  return (name) => {
    // Unknown names throw here, before anything is cached.
    const definition = agentFor(ctx, name);
    const key = name ?? '';
    let picked = prepared.get(key);
    if (!picked) {
      picked = snapshotDefinition(definition).then((snapshot) => ({
        definition,
        snapshot,
        hash: snapshot.definition_hash,
      }));
      prepared.set(key, picked);
    }
    return picked;
  };
}
