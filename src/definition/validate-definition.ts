import { ValidationError } from '../errors/validation-error.js';
import { identityMapper, resolveIssues, type PendingIssue, type SourceMapper } from './issues.js';
import type { LoadResult, ValidateOptions } from './load-options.js';
import { normalize } from './normalize.js';
import { parseSections } from './parse-sections.js';
import { displayFile, validateContext } from './validate-context.js';

/** A definition read from its file but not yet checked. */
export interface PreparedDefinition {
  /** Undefined when the file did not parse (its issues say why). */
  raw: unknown;
  mapper: SourceMapper;
  /** Issues the loader found itself (syntax errors, ignored foreign fields). */
  issues: PendingIssue[];
}

/**
 * Checks a prepared definition and returns it normalised with its warnings,
 * or throws one `ValidationError` holding every error found.
 */
export function checkPrepared(prepared: PreparedDefinition, options: ValidateOptions): LoadResult {
  const ctx = validateContext(options);
  const file = displayFile(ctx.source.file, ctx.cwd);
  const pending = [...prepared.issues];
  let definition: LoadResult['definition'] | undefined;
  if (prepared.raw !== undefined || !pending.some((i) => i.severity === 'error')) {
    const parsed = parseSections(prepared.raw);
    const normalized = normalize(parsed.sections, ctx);
    pending.push(...parsed.issues, ...normalized.issues);
    definition = normalized.definition;
  }
  const issues = resolveIssues(pending, prepared.mapper, file);
  const errors = issues.filter((issue) => issue.severity === 'error');
  if (errors.length > 0 || !definition) throw new ValidationError(errors);
  return { definition, warnings: issues.filter((issue) => issue.severity === 'warning') };
}

/**
 * Validates a definition built in code (a `defineAgent` result, an object
 * from JSON, a proto JSON message). Foreign leniency applies when
 * `options.source.foreign` is set.
 */
export function validateDefinitionObject(raw: unknown, options: ValidateOptions = {}): LoadResult {
  return checkPrepared({ raw, mapper: identityMapper, issues: [] }, options);
}
