import type { ValidationIssue } from '../errors/validation-error.js';

/** A field path as segments: object keys and array indexes. */
export type IssuePath = readonly (string | number)[];

/** Whether an issue points at a field's key (unknown field) or its value (bad value). */
export type IssueAnchor = 'key' | 'value';

export interface SourcePosition {
  line: number;
  column: number;
}

/** An issue before it is tied to a file position. */
export interface PendingIssue {
  path: IssuePath;
  message: string;
  severity: 'error' | 'warning';
  anchor?: IssueAnchor;
  /** Set when the issue lives in another file (a referenced schema file). */
  file?: string;
  /** A position found by the loader itself (e.g. a Markdown frontmatter key). */
  at?: SourcePosition;
  /** The path as the author wrote it, when the loader already knows it. */
  displayPath?: IssuePath;
}

/** Maps paths of the checked object back to what the author wrote and where. */
export interface SourceMapper {
  /** The path in the author's own spelling (foreign files use their own keys). */
  display(path: IssuePath): IssuePath;
  position(path: IssuePath, anchor: IssueAnchor): SourcePosition | undefined;
}

export const identityMapper: SourceMapper = {
  display: (path) => path,
  position: () => undefined,
};

export const errorAt = (
  path: IssuePath,
  message: string,
  anchor: IssueAnchor = 'value',
): PendingIssue => ({
  path,
  message,
  severity: 'error',
  anchor,
});

export const warningAt = (
  path: IssuePath,
  message: string,
  anchor: IssueAnchor = 'value',
): PendingIssue => ({
  path,
  message,
  severity: 'warning',
  anchor,
});

/** `runConfig.max_turns`, `toolConfig.tools.2`: dots throughout, as ValidationIssue.path documents. */
const dottedPath = (path: IssuePath): string => path.map(String).join('.');

/** Ties pending issues to file, line and column, sorted by position so a reader fixes a file top to bottom. */
export function resolveIssues(
  pending: readonly PendingIssue[],
  mapper: SourceMapper,
  file: string | undefined,
): ValidationIssue[] {
  const resolved = pending.map((issue): ValidationIssue => {
    const ownFile = issue.file !== undefined;
    const at = ownFile
      ? issue.at
      : (issue.at ?? mapper.position(issue.path, issue.anchor ?? 'value'));
    const path = issue.displayPath ?? (ownFile ? issue.path : mapper.display(issue.path));
    const out: ValidationIssue = {
      path: dottedPath(path),
      message: issue.message,
      severity: issue.severity,
    };
    const where = issue.file ?? file;
    if (where !== undefined) out.file = where;
    if (at) {
      out.line = at.line;
      out.column = at.column;
    }
    return out;
  });
  const key = (i: ValidationIssue): number =>
    (i.line ?? Number.MAX_SAFE_INTEGER) * 10_000 + (i.column ?? 0);
  return resolved
    .map((issue, index) => ({ issue, index }))
    .sort((a, b) => key(a.issue) - key(b.issue) || a.index - b.index)
    .map((entry) => entry.issue);
}
