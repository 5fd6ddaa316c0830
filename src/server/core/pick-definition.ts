import { NotFoundError } from '../../errors/cadre-error.js';
import { definitionFromSnapshot, definitionHash } from '../../trajectory/definition-snapshot.js';
import type { AgentDefinition } from '../../spec/types.js';
import type { Run } from '../../store/types.js';
import { SERVER_DEFAULT_MAX_TURNS, type ServerContext } from './server-context.js';

/** The agent a request names, or the server's default; the seed's 3-turn limit unless the agent sets its own. */
export function agentFor(ctx: ServerContext, name: string | undefined): AgentDefinition {
  let definition = ctx.defaultAgent;
  if (name) {
    const entry = ctx.agents.get(name);
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
    const live = agentFor(ctx, run.agent === ctx.defaultAgent.name ? undefined : run.agent);
    if ((await definitionHash(live)) === run.definitionHash) return live;
  } catch {
    // The agent is gone: the snapshot still runs it.
  }
  const snapshot = await ctx.store.getDefinition(run.definitionHash);
  if (snapshot === undefined)
    throw new Error(`The definition this run started with (${run.definitionHash}) is not stored.`);
  return definitionFromSnapshot(snapshot as Parameters<typeof definitionFromSnapshot>[0]);
}
