import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseJsonText, parseYamlText, normalizeText } from './data-file.js';
import { isPlainObject, describeValue } from './describe-value.js';
import { errorAt, type IssuePath, type PendingIssue } from './issues.js';
import { checkJsonSchema } from './json-schema-check.js';
import { requireYaml } from './lazy-modules.js';

export interface SchemaFileResult {
  schema?: Record<string, unknown>;
  issues: PendingIssue[];
}

/**
 * Loads an output schema from a .json / .yaml file. Problems inside that file
 * are reported against it (its own name, line and column); a missing file is
 * reported at the reference in the definition.
 */
export function loadSchemaFile(
  reference: string,
  absolute: string,
  refPath: IssuePath,
  cwd: string,
): SchemaFileResult {
  let text: string;
  try {
    text = normalizeText(readFileSync(absolute, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'not found' : `cannot be read (${code ?? String(error)})`;
    return {
      issues: [
        errorAt(
          refPath,
          `schema file "${reference}" ${why} (looked at ${path.relative(cwd, absolute) || absolute})`,
        ),
      ],
    };
  }
  const yaml = requireYaml();
  const parsed = absolute.endsWith('.json') ? parseJsonText(yaml, text) : parseYamlText(yaml, text);
  const file = path.relative(cwd, absolute) || absolute;
  let issues = parsed.issues;
  if (issues.length === 0 && !isPlainObject(parsed.data)) {
    issues = [errorAt([], `expected a JSON Schema mapping, got ${describeValue(parsed.data)}`)];
  }
  if (issues.length === 0) issues = checkJsonSchema(parsed.data as Record<string, unknown>, []);
  if (issues.length > 0) {
    // Positions inside the schema file, reported against that file.
    const located = issues.map((issue): PendingIssue => {
      const at = issue.at ?? parsed.mapper.position(issue.path, issue.anchor ?? 'value');
      return { ...issue, file, displayPath: issue.path, ...(at ? { at } : {}) };
    });
    return { issues: located };
  }
  return { schema: parsed.data as Record<string, unknown>, issues: [] };
}
