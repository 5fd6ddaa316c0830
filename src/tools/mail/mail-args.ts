import { checkEmailAddress, quoted } from './email-address.js';

/** The arguments as a model sends them. */
export interface MailArgs {
  to: string | string[];
  subject: string;
  body: string;
  cc?: string | string[];
  bcc?: string | string[];
}

/** Lower-cased, deduplicated across to/cc/bcc (first field wins), always arrays. A type alias so it fits the policy's `Record<string, unknown>`. */
export type NormalizedMailArgs = {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  body: string;
};

export type MailArgsResult =
  { ok: true; args: NormalizedMailArgs; recipients: string[] } | { ok: false; reason: string };

export const MAIL_LIMITS = {
  maxRecipients: 50,
  maxSubjectChars: 255,
  maxBodyBytes: 256 * 1024,
} as const;

const KNOWN = new Set(['to', 'subject', 'body', 'cc', 'bcc']);
// A subject is one header line: no CR/LF (header injection), no other control
// characters, no Unicode line separators some clients break lines on.
const SUBJECT_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const fail = (reason: string): MailArgsResult => ({ ok: false, reason });

/**
 * Validates and normalises gmail_send arguments. Runs before the policy and
 * the approval card, so a malformed or unsafe mail is refused, never shown
 * to a person to approve.
 */
export function normalizeMailArgs(args: unknown): MailArgsResult {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return fail('the arguments must be an object');
  }
  const input = args as Record<string, unknown>;
  const unknown = Object.keys(input).find((key) => !KNOWN.has(key));
  if (unknown !== undefined) return fail(`unknown argument ${quoted(unknown)}`);

  const seen = new Set<string>();
  const lists: Record<'to' | 'cc' | 'bcc', string[]> = { to: [], cc: [], bcc: [] };
  for (const field of ['to', 'cc', 'bcc'] as const) {
    const result = addressList(field, input[field], seen);
    if (typeof result === 'string') return fail(result);
    lists[field] = result;
  }
  if (lists.to.length === 0) return fail('"to" needs at least one recipient');
  const recipients = [...lists.to, ...lists.cc, ...lists.bcc];
  if (recipients.length > MAIL_LIMITS.maxRecipients) {
    return fail(
      `too many recipients (${recipients.length}); at most ${MAIL_LIMITS.maxRecipients} per message`,
    );
  }

  const subject = input.subject;
  if (typeof subject !== 'string') return fail('"subject" must be a string');
  if (SUBJECT_FORBIDDEN.test(subject)) {
    return fail('"subject" must be one line: line breaks and control characters are not allowed');
  }
  const trimmedSubject = subject.trim();
  if (trimmedSubject.length === 0) return fail('"subject" must not be empty');
  if (trimmedSubject.length > MAIL_LIMITS.maxSubjectChars) {
    return fail(`"subject" is longer than ${MAIL_LIMITS.maxSubjectChars} characters`);
  }

  const body = input.body;
  if (typeof body !== 'string') return fail('"body" must be a string');
  if (body.includes('\u0000')) return fail('"body" contains a NUL character');
  if (Buffer.byteLength(body, 'utf8') > MAIL_LIMITS.maxBodyBytes) {
    return fail(`"body" is larger than ${MAIL_LIMITS.maxBodyBytes / 1024} KiB`);
  }

  return { ok: true, args: { ...lists, subject: trimmedSubject, body }, recipients };
}

/** One field's addresses, checked and deduplicated against earlier fields; a string is a refusal. */
function addressList(field: string, value: unknown, seen: Set<string>): string[] | string {
  if (value === undefined) return [];
  const items = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(items) || !items.every((item) => typeof item === 'string')) {
    return `"${field}" must be an address or a list of addresses`;
  }
  if (items.length > MAIL_LIMITS.maxRecipients) {
    return `too many recipients in "${field}"; at most ${MAIL_LIMITS.maxRecipients} per message`;
  }
  const out: string[] = [];
  for (const item of items) {
    const check = checkEmailAddress(item);
    if (!check.ok) return `"${field}": ${check.reason}`;
    if (seen.has(check.address)) continue;
    seen.add(check.address);
    out.push(check.address);
  }
  return out;
}
