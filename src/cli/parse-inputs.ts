import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import { inputsJsonSchema } from '../runtime/prompt/inputs.js';
import type { AgentDefinition } from '../definition/types.js';

/**
 * `--input key=value` pairs, typed by the definition's inputs: numbers,
 * booleans and JSON arrays/objects are converted so they validate.
 */
export function parseCliInputs(
  definition: AgentDefinition,
  pairs: readonly string[],
): Record<string, unknown> {
  const schema = inputsJsonSchema(definition);
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
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
    const converted = convert(raw, properties[key]?.type);
    if (converted.ok) inputs[key] = converted.value;
    else issues.push({ path: `inputs.${key}`, message: converted.message });
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return inputs;
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
