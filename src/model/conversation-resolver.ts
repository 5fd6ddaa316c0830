import { cachedResolver } from './cached-resolver.js';
import {
  resolveModelClient,
  routeModel,
  type ModelEnv,
  type ResolvedModel,
} from './resolve-model.js';
import { loadScriptedModel } from './scripted-file.js';
import type { ModelClient } from './types.js';

/** Picks a client for a model string within one conversation (a server thread). */
export type ConversationResolver = (
  model: string,
  conversation: string,
) => { client: ModelClient; model: string };

/** Scripted conversations kept at once; an older one forgotten starts over (see `resume`). */
const KEPT_CONVERSATIONS = 1_000;

/**
 * For a server: provider clients are shared by every run, but a scripted
 * model gets one client per conversation, so each thread plays the script
 * from its own start and one thread can never use up another's turns. A
 * client made for a run already under way (after a restart, or in another
 * process) picks up after the turns that run has taken. Its call ids are
 * its own, as tools key effects on them (a calendar event's UID).
 */
export function conversationResolver(
  env: ModelEnv,
  cwd: string,
  kept = KEPT_CONVERSATIONS,
): ConversationResolver {
  const shared = cachedResolver((model: string) => resolveModelClient(model, env, { cwd }));
  const scripted = new Map<string, ResolvedModel>();
  return (modelString, conversation) => {
    const { provider, model } = routeModel(modelString, env);
    if (provider !== 'scripted') return shared(modelString);
    const key = `${conversation}\n${model}`;
    const known = scripted.get(key);
    if (known) {
      // Most recently used last, so the oldest conversation is the one forgotten.
      scripted.delete(key);
      scripted.set(key, known);
      return known;
    }
    const resolved: ResolvedModel = {
      client: loadScriptedModel(model, cwd, { resume: true, uniqueCallIds: true }),
      model,
      provider,
    };
    scripted.set(key, resolved);
    if (scripted.size > kept) scripted.delete(scripted.keys().next().value ?? key);
    return resolved;
  };
}
