import { CadreError } from '../errors/cadre-error.js';
import { formatIssue, ValidationError } from '../errors/validation-error.js';
import { missingPackage } from '../util/optional-import.js';
import { npmInstall } from '../util/npm-install.js';
import { EXIT } from './cli-io.js';
import type { Style } from './style.js';

/** User mistakes get their message, never a stack trace; returns the exit code. */
export function reportError(error: unknown, write: (text: string) => void, style: Style): number {
  if (error instanceof ValidationError) {
    for (const issue of error.issues) write(`${style.red('error')} ${formatIssue(issue)}\n`);
    return EXIT.failed;
  }
  if (error instanceof CadreError) {
    write(`${style.red('error')} ${error.message}\n`);
    return error.code === 'config_error' ? EXIT.setup : EXIT.failed;
  }
  // A package left out of the install that no loader named: still a setup problem, not a crash.
  const missing = missingPackage(error);
  if (missing !== undefined) {
    write(`${style.red('error')} ${missing} is not installed: ${npmInstall()} ${missing}\n`);
    return EXIT.setup;
  }
  write(
    `${style.red('internal error')} ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return EXIT.failed;
}
