import { ConfigError } from '../errors/cadre-error.js';
import type { JsonSchema } from '../model/types.js';
import type { SchemaValidator } from '../runtime/completion/schema-validator.js';
import type { AgentDefinition } from '../definition/types.js';
import type { DatasetKind } from './load-dataset.js';
import { containsScorer } from './scorers/contains.js';
import { exactScorer } from './scorers/exact.js';
import { jsonSchemaScorer } from './scorers/json-schema.js';
import { regexScorer } from './scorers/regex.js';
import { toolCalledScorer } from './scorers/tool-called.js';
import type { EvalRow, Scorer } from './types.js';

export const SCORER_NAMES = [
  'exact',
  'contains',
  'regex',
  'json_schema',
  'tool_called',
  'llm_judge',
] as const;
export type ScorerName = (typeof SCORER_NAMES)[number];

/** `contains`, or `json_schema=schema.json` (a scorer and its argument). */
export interface ScorerSpec {
  name: ScorerName;
  arg?: string;
}

/** `--scorer a,b --scorer json_schema=s.json` → specs; unknown names are an error listing the known ones. */
export function parseScorerSpecs(values: readonly string[]): ScorerSpec[] {
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)
    .map((text) => {
      const eq = text.indexOf('=');
      const name = eq < 0 ? text : text.slice(0, eq);
      if (!(SCORER_NAMES as readonly string[]).includes(name))
        throw new ConfigError(`Unknown scorer "${name}". Scorers: ${SCORER_NAMES.join(', ')}.`);
      return { name: name as ScorerName, ...(eq < 0 ? {} : { arg: text.slice(eq + 1) }) };
    });
}

/** Without --scorer: a trajectory set checks the recorded outputs exactly; JSONL rows, what they expect. */
export function defaultScorers(kind: DatasetKind, rows: readonly EvalRow[]): ScorerSpec[] {
  if (kind === 'trajectories') return [{ name: 'exact' }];
  const specs: ScorerSpec[] = [];
  if (rows.some((r) => r.expected !== undefined)) specs.push({ name: 'contains' });
  if (rows.some((r) => r.expected_tool !== undefined)) specs.push({ name: 'tool_called' });
  if (specs.length === 0)
    throw new ConfigError(
      'The rows have no "expected" or "expected_tool": choose a scorer, e.g. --scorer llm_judge or --scorer json_schema.',
    );
  return specs;
}

export interface ScorerDeps {
  definition: AgentDefinition;
  validator: SchemaValidator;
  /** Reads a JSON Schema file (json_schema=FILE). */
  readSchema(file: string): Promise<JsonSchema>;
  /** Builds the LLM judge; called only when llm_judge is asked for. */
  judge(): Promise<Scorer>;
}

export async function buildScorers(
  specs: readonly ScorerSpec[],
  deps: ScorerDeps,
): Promise<Scorer[]> {
  const scorers: Scorer[] = [];
  for (const spec of specs) scorers.push(await buildScorer(spec, deps));
  const names = scorers.map((s) => s.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new ConfigError(`Scorer "${twice}" is given twice.`);
  return scorers;
}

async function buildScorer(spec: ScorerSpec, deps: ScorerDeps): Promise<Scorer> {
  switch (spec.name) {
    case 'exact':
      return exactScorer();
    case 'contains':
      return containsScorer();
    case 'regex':
      return regexScorer();
    case 'tool_called':
      return toolCalledScorer();
    case 'llm_judge':
      return deps.judge();
    case 'json_schema': {
      if (spec.arg)
        return jsonSchemaScorer(
          { kind: 'json_schema', schema: await deps.readSchema(spec.arg) },
          deps.validator,
        );
      const own = deps.definition.outputConfig?.schema;
      if (!own)
        throw new ConfigError(
          `json_schema needs a schema: ${deps.definition.name} has no output schema; pass --scorer json_schema=FILE.`,
        );
      return jsonSchemaScorer(own, deps.validator);
    }
    default:
      return spec.name satisfies never;
  }
}
