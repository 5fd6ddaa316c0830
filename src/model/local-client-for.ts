import { LocalClient } from './local-client.js';
import { localModelPath, parseLocalModel } from './local-model-ref.js';

type ModelEnv = Readonly<Record<string, string | undefined>>;

/**
 * The client for `local:<spec>`, tuned by the environment: CADRE_LOCAL_THREADS
 * (CPU threads, default the physical cores less one), CADRE_LOCAL_PARALLEL (generations at once, default 2),
 * CADRE_LOCAL_CONTEXT (largest context per generation, default 16384 tokens
 * or the model's own window when smaller).
 */
export function localClient(spec: string, env: ModelEnv, cwd: string | undefined): LocalClient {
  const ref = parseLocalModel(spec, cwd);
  const load = () => import('node-llama-cpp');
  const threads = positive(env.CADRE_LOCAL_THREADS);
  const sequences = positive(env.CADRE_LOCAL_PARALLEL);
  const maxContext = positive(env.CADRE_LOCAL_CONTEXT);
  return new LocalClient({
    label: spec.trim(),
    modelPath: () => localModelPath(ref, env, load),
    ...(threads !== undefined ? { threads } : {}),
    ...(sequences !== undefined ? { sequences } : {}),
    ...(maxContext !== undefined ? { maxContext } : {}),
  });
}

function positive(text: string | undefined): number | undefined {
  const value = Number(text?.trim());
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
