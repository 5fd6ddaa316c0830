import type { ValidationIssue } from '../errors/validation-error.js';
import { resolveIssues, type SourceMapper, type SourcePosition } from './issues.js';
import type { LoadResult } from './load-options.js';
import { placeholderIssues } from './placeholder-issues.js';
import { dialectPlaceholders } from './placeholder-style.js';

/** The file a definition was loaded from, as the loader read it. */
export interface LoadedFile {
  raw: unknown;
  mapper: SourceMapper;
  /** The file's text (LF line ends), to place a warning on its placeholder's own line. */
  text: string;
  /** As issues name it. */
  file?: string;
}

/** Where `token` first occurs at or after `from`: a field's position, then its text. */
function positionOf(text: string, from: SourcePosition, token: string): SourcePosition | undefined {
  const lines = text.split('\n');
  const start =
    lines.slice(0, from.line - 1).reduce((sum, line) => sum + line.length + 1, 0) + from.column - 1;
  const found = text.indexOf(token, Math.max(0, start));
  if (found < 0) return undefined;
  const before = text.slice(0, found).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

const byPosition = (a: ValidationIssue, b: ValidationIssue): number =>
  (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) ||
  (a.column ?? 0) - (b.column ?? 0);

/**
 * Completes a loaded file: a foreign file's prompt gets its tool's
 * placeholder style, and placeholders no input can fill are warned about
 * on their own line.
 */
export function withPlaceholders(loaded: LoadResult, from: LoadedFile): LoadResult {
  const foreign = loaded.definition.source?.foreign;
  const prompt = loaded.definition.promptConfig;
  const definition =
    foreign && prompt.placeholders === undefined
      ? {
          ...loaded.definition,
          promptConfig: { ...prompt, placeholders: dialectPlaceholders(foreign) },
        }
      : loaded.definition;
  const pending = placeholderIssues(definition, from.raw).map(({ issue, token }) => {
    const field = from.mapper.position(issue.path, issue.anchor ?? 'value');
    const at = field && positionOf(from.text, field, token);
    return at ? { ...issue, at } : issue;
  });
  if (pending.length === 0) return { ...loaded, definition };
  const warnings = [...loaded.warnings, ...resolveIssues(pending, from.mapper, from.file)];
  return { definition, warnings: warnings.sort(byPosition) };
}
