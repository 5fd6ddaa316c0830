import { ValidationError, type ValidationIssue } from './validation-error.js';

/**
 * Something the store read back is not what Cadre writes (a damaged row, a
 * state edited by hand): refused naming the field, since resuming or showing
 * a misread record would do the wrong thing quietly. `what` names the record.
 */
export class StoredDataError extends ValidationError {
  readonly what: string;

  constructor(what: string, issues: readonly ValidationIssue[]) {
    const first = issues[0];
    const where = first ? `${first.path || '(top)'}: ${first.message}` : 'unreadable';
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(issues, `The stored ${what} is not valid: ${where}${more}.`);
    this.what = what;
  }
}
