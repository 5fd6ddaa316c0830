import { isRecord } from './describe-value.js';
import type { SourceNote } from './translating-mapper.js';

/** generate_content_config keys Cadre sends to the model (adk-extras.ts and adk-to-raw.ts). */
const MAPPED_GENERATION = new Set([
  'temperature',
  'top_p',
  'max_output_tokens',
  'maxOutputTokens',
  'thinking_config',
  'thinkingConfig',
  'top_k',
  'topK',
  'stop_sequences',
  'stopSequences',
]);

/** Why a field ADK reads does nothing in Cadre. */
const IGNORED: Readonly<Record<string, string>> = {
  before_agent_callbacks: 'Cadre does not run Python callbacks',
  after_agent_callbacks: 'Cadre does not run Python callbacks',
  before_model_callbacks: 'Cadre does not run Python callbacks',
  after_model_callbacks: 'Cadre does not run Python callbacks',
  before_tool_callbacks: 'Cadre does not run Python callbacks',
  after_tool_callbacks: 'Cadre does not run Python callbacks',
  planner: 'Cadre has no ADK planners',
  code_executor: 'Cadre has no ADK code executors',
  model_code: 'Cadre does not import Python model objects; write model: <name>',
  input_schema: 'it names a Python class, which Cadre cannot import',
  output_schema: 'it names a Python class, which Cadre cannot import',
  global_instruction: 'Cadre does not share one instruction across an agent tree',
};

const GENERATION_WHY: Readonly<Record<string, string>> = {
  safety_settings: "Cadre's model clients send no safety settings",
};

/**
 * Notes for the ADK fields Cadre cannot honour, each at its own line, so a
 * file never loses what it says without a word. `disallow_transfer_*` is
 * silent: a Cadre sub-agent is called like a tool and always returns to its
 * caller, which is what `true` asks for; `false` asks for transfers, which
 * Cadre does not make.
 */
export function adkUnmapped(data: Record<string, unknown>): SourceNote[] {
  const notes: SourceNote[] = [];
  for (const [key, why] of Object.entries(IGNORED)) {
    if (data[key] === undefined || data[key] === null) continue;
    if (Array.isArray(data[key]) && data[key].length === 0) continue;
    notes.push({ path: [key], message: `${key} is ignored: ${why}`, severity: 'warning' });
  }
  for (const key of ['disallow_transfer_to_parent', 'disallow_transfer_to_peers'])
    if (data[key] === false)
      notes.push({
        path: [key],
        message: `${key}: false is ignored: Cadre sub-agents never transfer control; they answer their caller`,
        severity: 'warning',
      });
  const generation = data.generate_content_config;
  if (isRecord(generation))
    for (const key of Object.keys(generation)) {
      if (MAPPED_GENERATION.has(key)) continue;
      const why = GENERATION_WHY[key] ?? 'Cadre does not send it to the model';
      notes.push({
        path: ['generate_content_config', key],
        message: `generate_content_config.${key} is ignored: ${why}`,
        severity: 'warning',
      });
    }
  return notes;
}
