import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import { inputsJsonSchema, PROMPT_INPUT } from '../runtime/prompt/inputs.js';
import type { AgentDefinition } from '../definition/types.js';
import type { JsonSchema } from '../model/types.js';

/**
 * `--input key=value` pairs and the prompt words, typed by the definition's
 * inputs: numbers, booleans and JSON arrays/objects are converted so they
 * validate. Mistakes are caught here, where the advice can name the flags:
 * an input the agent does not have (a typo) names the inputs it has, a
 * missing one says how to pass it, and a prompt for an agent that takes
 * none says to use --input instead.
 */
export function parseCliInputs(
  definition: AgentDefinition,
  pairs: readonly string[],
  promptWords: readonly string[] = [],
): Record<string, unknown> {
  const schema = inputsJsonSchema(definition);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(properties);
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  // Only declared inputs are checked: a chat agent's placeholders may read others, and a
  // schema that explicitly admits more fields gets them unchecked.
  const closed =
    definition.inputConfig !== undefined &&
    schema.additionalProperties !== true &&
    typeof schema.additionalProperties !== 'object';
  const list = names.map((name) => (required.has(name) ? `${name} (required)` : name)).join(', ');
  const inputs: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      issues.push({ path: '--input', message: `expected key=value, got "${pair}"` });
      continue;
    }
    const key = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    if (closed && !(key in properties)) {
      const near = names.find((name) => closeTo(name, key));
      issues.push({
        path: `--input ${key}`,
        message: `${definition.name} has no input "${key}"${near ? ` (did you mean ${near}?)` : ''}; ${names.length > 0 ? `its inputs: ${list}` : 'it takes no inputs'}`,
      });
      continue;
    }
    const converted = convert(raw, properties[key]?.type);
    if (converted.ok) inputs[key] = converted.value;
    else issues.push({ path: `inputs.${key}`, message: converted.message });
  }
  if (promptWords.length > 0) {
    if (PROMPT_INPUT in properties) inputs[PROMPT_INPUT] = promptWords.join(' ');
    else
      issues.push({
        path: 'prompt',
        message: `${definition.name} takes no prompt; pass its inputs with --input instead (${names.map((name) => `--input ${name}=…`).join(' ') || 'it takes none'})`,
      });
  }
  for (const name of required) {
    if (name in inputs || issues.length > 0) continue;
    const description = properties[name]?.description;
    issues.push({
      path: `inputs.${name}`,
      message:
        name === PROMPT_INPUT
          ? `${definition.name} needs a prompt: cadre run ${definition.name} "your message" (or --input prompt=…)`
          : `is required${typeof description === 'string' ? ` (${description})` : ''}: pass --input ${name}=…`,
    });
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return inputs;
}

/** One edit apart, or the same letters in another order: a likely typo. */
function closeTo(a: string, b: string): boolean {
  if (a.toLowerCase() === b.toLowerCase()) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  let j = 0;
  while (j < a.length - i && a[a.length - 1 - j] === b[b.length - 1 - j]) j++;
  return (
    Math.max(a.length, b.length) - i - j <= 1 || [...a].sort().join('') === [...b].sort().join('')
  );
}

function convert(
  raw: string,
  type: unknown,
): { ok: true; value: unknown } | { ok: false; message: string } {
  switch (type) {
    case 'number':
    case 'integer': {
      const value = Number(raw);
      return raw.trim() !== '' && Number.isFinite(value)
        ? { ok: true, value }
        : { ok: false, message: `expected a number, got "${raw}"` };
    }
    case 'boolean':
      if (raw === 'true' || raw === 'false') return { ok: true, value: raw === 'true' };
      return { ok: false, message: `expected true or false, got "${raw}"` };
    case 'array':
    case 'object':
      try {
        return { ok: true, value: JSON.parse(raw) as unknown };
      } catch {
        return { ok: false, message: `expected JSON (${type}), got "${raw}"` };
      }
    default:
      return { ok: true, value: raw };
  }
}
