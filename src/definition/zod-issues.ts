import * as z from 'zod';
import { didYouMean } from './did-you-mean.js';
import { errorAt, type IssuePath, type PendingIssue } from './issues.js';

/** Field names the object schema at `path` accepts (for did-you-mean on unknown keys). */
function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: unknown = schema;
  for (let i = 0; ; i++) {
    current = unwrap(current);
    if (i === path.length) break;
    if (current instanceof z.ZodObject)
      current = (current.shape as Record<string, unknown>)[String(path[i])];
    else if (current instanceof z.ZodRecord) current = current.valueType;
    else if (current instanceof z.ZodArray) current = current.element;
    else return [];
  }
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

function unwrap(schema: unknown): unknown {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable)
      current = current.unwrap();
    else if (current instanceof z.ZodUnion) {
      const object = current.options.find(
        (option: unknown) => unwrap(option) instanceof z.ZodObject,
      );
      if (object === undefined) return current;
      current = object;
    } else return current;
  }
}

const segments = (path: readonly PropertyKey[]): (string | number)[] =>
  path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));

/** Zod issues of one section → pending issues, one per unknown key, each unknown key with a did-you-mean. */
export function fromZodIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: IssuePath,
  schema: z.ZodType,
): PendingIssue[] {
  const out: PendingIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...segments(issue.path)];
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(schema, issue.path);
      for (const key of issue.keys) {
        out.push(errorAt([...path, key], `unknown field "${key}"${didYouMean(key, known)}`, 'key'));
      }
    } else {
      out.push(errorAt(path, issue.message));
    }
  }
  return out;
}
