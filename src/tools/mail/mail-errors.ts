import {
  AuthError,
  CancelledError,
  ToolExecutionError,
  type CadreError,
} from '../../errors/index.js';

interface SmtpFailure {
  name?: string;
  code?: string;
  responseCode?: number;
  command?: string;
  rejected?: string[];
}

const UNREACHABLE = new Set(['ECONNECTION', 'ESOCKET', 'EDNS', 'ETIMEDOUT', 'ETLS', 'EPROXY']);
const AUTH = new Set(['EAUTH', 'ENOAUTH', 'EOAUTH2']);

/**
 * A nodemailer failure as a taxonomy error. The public message carries codes
 * only: a server's reply text often quotes the recipient, so it stays out
 * (and out of `details`, which reach the logs).
 */
export function toMailError(error: unknown, signal: AbortSignal): CadreError {
  const failure: SmtpFailure = typeof error === 'object' && error !== null ? error : {};
  const details = {
    code: failure.code,
    responseCode: failure.responseCode,
    command: failure.command,
  };
  if (signal.aborted || failure.code === 'EABORT' || failure.name === 'AbortError') {
    return new CancelledError(
      'The mail call was cancelled before the server confirmed the message.',
    );
  }
  if (failure.code !== undefined && AUTH.has(failure.code)) {
    return new AuthError(
      'The mail server refused the credentials; check CADRE_SMTP_URL or the GMAIL_* settings.',
    );
  }
  if (failure.code !== undefined && UNREACHABLE.has(failure.code)) {
    return new ToolExecutionError(`Could not reach the mail server (${failure.code}).`, {
      details,
    });
  }
  if (failure.code === 'EENVELOPE') {
    const count = failure.rejected?.length ?? 0;
    const what = count > 0 ? `${count} recipient${count === 1 ? '' : 's'}` : 'the envelope';
    const smtp = failure.responseCode === undefined ? '' : ` (SMTP ${failure.responseCode})`;
    return new ToolExecutionError(`The mail server refused ${what}${smtp}.`, { details });
  }
  if (failure.responseCode !== undefined) {
    return new ToolExecutionError(
      `The mail server refused the message (SMTP ${failure.responseCode}).`,
      { details },
    );
  }
  return new ToolExecutionError('Sending the mail failed.', { details });
}
