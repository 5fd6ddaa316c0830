import type * as z from 'zod';
import { describeValue, isRecord } from './describe-value.js';
import { didYouMean } from './did-you-mean.js';
import { errorAt, type PendingIssue } from './issues.js';
import { rawDefinitionShape, type RawDefinition } from './raw-definition-schema.js';
import { fromZodIssues } from './zod-issues.js';

export interface ParsedSections {
  /** Every top-level field that passed its own schema. */
  sections: Partial<RawDefinition>;
  issues: PendingIssue[];
}

const SHAPE: Readonly<Record<string, z.ZodType>> = rawDefinitionShape;
const FIELD_NAMES = Object.keys(rawDefinitionShape);

/**
 * Checks each top-level field on its own, so a bad `runConfig` does not stop
 * the tool names or the schema reference from being checked too: users get
 * every error in one pass.
 */
export function parseSections(raw: unknown): ParsedSections {
  if (!isRecord(raw)) {
    return {
      sections: {},
      issues: [errorAt([], `expected a mapping of definition fields, got ${describeValue(raw)}`)],
    };
  }
  const issues: PendingIssue[] = [];
  for (const key of Object.keys(raw)) {
    if (!(key in SHAPE))
      issues.push(errorAt([key], `unknown field "${key}"${didYouMean(key, FIELD_NAMES)}`, 'key'));
  }
  const sections: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(SHAPE)) {
    const result = schema.safeParse(raw[key]);
    if (!result.success) issues.push(...fromZodIssues(result.error.issues, [key], schema));
    else if (result.data !== undefined) sections[key] = result.data;
  }
  return { sections: sections as Partial<RawDefinition>, issues };
}
