import type { AgentInputView } from '../api/wire-types.js';

/** How a field is entered: its spec type decides. */
export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'list' | 'json';

/** What the form holds: text for every field but checkboxes. */
export type FieldValues = Record<string, string | boolean>;

export type ParsedInputs =
  { ok: true; inputs: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

export function fieldKind(type: string): FieldKind {
  if (type === 'string') return 'text';
  if (type === 'number' || type === 'integer' || type === 'boolean') return type;
  if (type.endsWith('[]') || type === 'array') return 'list';
  return 'json';
}

/** Lists are one item a line; a list of numbers holds numbers. */
const itemType = (type: string): string => (type.endsWith('[]') ? type.slice(0, -2) : 'string');

/**
 * The inputs a run gets from the form, typed as the agent declared them;
 * empty optional fields are left out. Every problem is reported at once,
 * by field. The server checks them again.
 */
export function parseInputs(fields: readonly AgentInputView[], values: FieldValues): ParsedInputs {
  const inputs: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = values[field.name];
    const kind = fieldKind(field.type);
    if (kind === 'boolean') {
      inputs[field.name] = raw === true;
      continue;
    }
    const text = typeof raw === 'string' ? raw : '';
    const parsed = parseField(kind, field.type, text);
    if (parsed.kind === 'empty') {
      if (field.required) errors[field.name] = 'is required';
    } else if (parsed.kind === 'error') errors[field.name] = parsed.message;
    else inputs[field.name] = parsed.value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, inputs };
}

type Parsed =
  { kind: 'empty' } | { kind: 'error'; message: string } | { kind: 'value'; value: unknown };

function parseField(kind: Exclude<FieldKind, 'boolean'>, type: string, text: string): Parsed {
  const trimmed = text.trim();
  if (!trimmed) return { kind: 'empty' };
  switch (kind) {
    case 'text':
      return { kind: 'value', value: text };
    case 'number':
    case 'integer':
      return scalar(kind, trimmed);
    case 'list': {
      const items = trimmed
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      const item = itemType(type);
      if (item !== 'number' && item !== 'integer') return { kind: 'value', value: items };
      const values: number[] = [];
      for (const line of items) {
        const parsed = scalar(item, line);
        if (parsed.kind !== 'value')
          return { kind: 'error', message: `"${line}" is not a ${item}` };
        values.push(parsed.value as number);
      }
      return { kind: 'value', value: values };
    }
    case 'json':
      try {
        return { kind: 'value', value: JSON.parse(trimmed) as unknown };
      } catch {
        return { kind: 'error', message: 'is not valid JSON' };
      }
    default:
      return kind satisfies never;
  }
}

function scalar(kind: 'number' | 'integer', text: string): Parsed {
  const value = Number(text);
  if (!Number.isFinite(value)) return { kind: 'error', message: `must be a ${kind}` };
  if (kind === 'integer' && !Number.isInteger(value))
    return { kind: 'error', message: 'must be a whole number' };
  return { kind: 'value', value };
}

/** The thread message of a run given by its inputs: one `name: value` line each (as the server writes it). */
export function inputsText(inputs: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(inputs);
  if (entries.length === 0) return '(no inputs)';
  return entries
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

/** An agent that takes structured inputs gets a form instead of the message box. */
export const takesInputs = <A extends { inputs?: AgentInputView[] }>(
  agent: A | undefined,
): agent is A & { inputs: AgentInputView[] } => (agent?.inputs?.length ?? 0) > 0;
