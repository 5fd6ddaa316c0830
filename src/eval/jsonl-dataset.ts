import { readFile } from 'node:fs/promises';
import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import type { EvalRow } from './types.js';

/**
 * JSONL rows `{id, input | inputs, expected?, expected_tool?}`, one per
 * line; blank lines and `//` comments are skipped. Every bad line is
 * reported at once, as `file:line`.
 */
export async function loadJsonlDataset(file: string, signal?: AbortSignal): Promise<EvalRow[]> {
  const text = await readFile(file, { encoding: 'utf8', signal });
  const rows: EvalRow[] = [];
  const issues: ValidationIssue[] = [];
  const ids = new Set<string>();
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('//')) return;
    const at = { file, line: index + 1 };
    const parsed = parseRow(trimmed, `row-${rows.length + 1}`, `${file}:${index + 1}`);
    if (typeof parsed === 'string') {
      issues.push({ ...at, path: '', message: parsed });
      return;
    }
    if (ids.has(parsed.id))
      issues.push({ ...at, path: 'id', message: `duplicate id "${parsed.id}"` });
    ids.add(parsed.id);
    rows.push(parsed);
  });
  if (issues.length > 0) throw new ValidationError(issues);
  if (rows.length === 0)
    throw new ValidationError([{ file, path: '', message: 'the dataset has no rows' }]);
  return rows;
}

/** A row, or what is wrong with the line. */
function parseRow(line: string, defaultId: string, source: string): EvalRow | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `not valid JSON: ${(error as Error).message}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'expected a JSON object';
  const raw = value as Record<string, unknown>;
  const id = raw.id === undefined ? defaultId : raw.id;
  if (typeof id !== 'string' && typeof id !== 'number') return 'id: expected a string';
  const hasInput = raw.input !== undefined;
  const hasInputs = raw.inputs !== undefined;
  if (hasInput === hasInputs) return 'give exactly one of "input" (text) or "inputs" (an object)';
  if (hasInput && typeof raw.input !== 'string')
    return 'input: expected a string (use "inputs" for an object)';
  if (
    hasInputs &&
    (typeof raw.inputs !== 'object' || raw.inputs === null || Array.isArray(raw.inputs))
  )
    return 'inputs: expected an object';
  const tool = raw.expected_tool;
  const toolOk =
    tool === undefined ||
    typeof tool === 'string' ||
    (Array.isArray(tool) && tool.every((t) => typeof t === 'string'));
  if (!toolOk) return 'expected_tool: expected a tool name or a list of names';
  return {
    id: String(id),
    ...(hasInput
      ? { input: raw.input as string }
      : { inputs: raw.inputs as Record<string, unknown> }),
    ...(raw.expected !== undefined ? { expected: raw.expected } : {}),
    ...(tool !== undefined ? { expected_tool: tool as string | string[] } : {}),
    source,
  };
}
