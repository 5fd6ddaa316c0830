import { readFile } from 'node:fs/promises';
import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import type { DatasetRowSchema } from './dataset-row-schema.js';
import type { EvalRow } from './types.js';

/**
 * JSONL rows `{id, input | inputs, expected?, expected_tool?}`, one per
 * line; blank lines and `//` comments are skipped. Every bad line is
 * reported at once, as `file:line`.
 */
export async function loadJsonlDataset(file: string, signal?: AbortSignal): Promise<EvalRow[]> {
  const text = await readFile(file, { encoding: 'utf8', signal });
  // zod loads on first use: the package entry reaches this module.
  const { datasetRowSchema } = await import('./dataset-row-schema.js');
  const rows: EvalRow[] = [];
  const issues: ValidationIssue[] = [];
  const ids = new Set<string>();
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('//')) return;
    const at = { file, line: index + 1 };
    const parsed = parseRow(
      datasetRowSchema,
      trimmed,
      `row-${rows.length + 1}`,
      `${file}:${index + 1}`,
    );
    if (Array.isArray(parsed)) {
      issues.push(...parsed.map((issue) => ({ ...at, ...issue })));
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

/** A row, or what is wrong with the line (each issue with its field). */
function parseRow(
  datasetRowSchema: DatasetRowSchema,
  line: string,
  defaultId: string,
  source: string,
): EvalRow | Array<{ path: string; message: string }> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return [{ path: '', message: `not valid JSON: ${(error as Error).message}` }];
  }
  const parsed = datasetRowSchema.safeParse(value);
  if (!parsed.success)
    return parsed.error.issues.map((issue) => ({
      path: issue.path.join('.'),
      message: issue.message,
    }));
  const row = parsed.data;
  return {
    id: String(row.id ?? defaultId),
    ...(row.input !== undefined ? { input: row.input } : { inputs: row.inputs ?? {} }),
    ...(row.expected !== undefined ? { expected: row.expected } : {}),
    ...(row.expected_tool !== undefined ? { expected_tool: row.expected_tool } : {}),
    source,
  };
}
