import { CadreError } from './cadre-error.js';

/** One problem found in a definition or an input, with where it is. */
export interface ValidationIssue {
  /** Field path in dotted form, e.g. `runConfig.max_turns` or `inputs.objective`. */
  path: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  severity?: 'error' | 'warning';
}

/** `agents/x.yaml:12:5 runConfig.max_turns: expected a positive integer, got "ten"` */
export function formatIssue(issue: ValidationIssue): string {
  const where = issue.file
    ? `${issue.file}${issue.line !== undefined ? `:${issue.line}${issue.column !== undefined ? `:${issue.column}` : ''}` : ''} `
    : '';
  const path = issue.path ? `${issue.path}: ` : '';
  return `${where}${path}${issue.message}`;
}

/** Every error in one throw: users fix a file once, not once per error. */
export class ValidationError extends CadreError {
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[], summary?: string) {
    super('validation_error', summary ?? issues.map(formatIssue).join('\n'));
    this.issues = issues;
  }
}
