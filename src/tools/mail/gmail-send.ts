import type { Address, SendMailOptions, SMTPTransportOptions } from 'nodemailer';
import { ValidationError } from '../../errors/index.js';
import { optionalImport } from '../../util/optional-import.js';
import { throwIfAborted } from '../builtin/abort.js';
import { defineTool, type Tool } from '../types.js';
import { MAIL_LIMITS, normalizeMailArgs, type MailArgs } from './mail-args.js';
import { resolveMailConfig, type MailEnv } from './mail-config.js';
import { toMailError } from './mail-errors.js';

/** The part of a nodemailer transporter this tool uses (tests may pass their own). */
export interface MailSender {
  sendMail(message: SendMailOptions): Promise<{
    messageId: string;
    accepted: (string | Address)[];
    rejected: (string | Address)[];
  }>;
  close(): void;
}

export type TransportFactory = (options: SMTPTransportOptions) => MailSender | Promise<MailSender>;

export interface GmailSendOptions {
  /** Settings such as `CADRE_SMTP_URL`, `GMAIL_*`, `CADRE_MAIL_FROM` (usually process.env, passed in). */
  env: MailEnv;
  transportFactory?: TransportFactory;
}

export interface GmailSendResult {
  messageId: string;
  accepted: string[];
  rejected: string[];
}

// nodemailer loads on first send, so registering the tool costs nothing; it is an
// optional peer, which `npm install cadre` leaves out.
const NODEMAILER = { needs: 'The gmail_send tool needs', packages: ['nodemailer'] };
const nodemailerTransport: TransportFactory = async (options) =>
  (await optionalImport(() => import('nodemailer'), NODEMAILER)).createTransport(options);

const addressOf = (entry: string | Address): string =>
  typeof entry === 'string' ? entry : (entry.address ?? '');

/** `Send "Quarterly report" to alice@example.com (+2 more)`; never the body. */
function previewMail(args: unknown): string {
  const normalized = normalizeMailArgs(args);
  if (!normalized.ok) return `Send an email (refused: ${normalized.reason})`;
  const { subject } = normalized.args;
  const [first, ...rest] = normalized.recipients;
  const shown = subject.length > 80 ? `${subject.slice(0, 79)}…` : subject;
  const more = rest.length > 0 ? ` (+${rest.length} more)` : '';
  return `Send "${shown}" to ${first ?? '(nobody)'}${more}`;
}

export function createGmailSendTool(options: GmailSendOptions): Tool {
  const factory = options.transportFactory ?? nodemailerTransport;
  return defineTool<MailArgs>({
    name: 'gmail_send',
    description:
      'Send a plain-text email. Recipients are bare addresses (name@example.com); `to`, `cc` and ' +
      `\`bcc\` take one address or a list (at most ${MAIL_LIMITS.maxRecipients} in all). Needs the ` +
      "user's approval unless they always allowed every recipient. Returns the message id and the " +
      'recipients the server accepted and rejected.',
    inputSchema: {
      type: 'object',
      properties: {
        to: addressesSchema('Main recipients.'),
        cc: addressesSchema('Copied recipients, visible to everyone.'),
        bcc: addressesSchema('Blind-copied recipients, hidden from the others.'),
        subject: { type: 'string', minLength: 1, description: 'One-line subject.' },
        body: { type: 'string', description: 'The message text (plain text).' },
      },
      required: ['to', 'subject', 'body'],
      additionalProperties: false,
    },
    sideEffect: true,
    defaultApproval: 'require',
    preview: previewMail,
    async execute(args, ctx): Promise<GmailSendResult> {
      throwIfAborted(ctx.signal);
      // Checked again here: execute must never send what the policy would refuse.
      const normalized = normalizeMailArgs(args);
      if (!normalized.ok) throw new ValidationError([{ path: '', message: normalized.reason }]);
      const config = resolveMailConfig(options.env);
      const { to, cc, bcc, subject, body } = normalized.args;
      const sender = await factory(config.transport);
      try {
        throwIfAborted(ctx.signal);
        const info = await sender.sendMail({
          from: config.from,
          to,
          ...(cc.length > 0 ? { cc } : {}),
          ...(bcc.length > 0 ? { bcc } : {}),
          subject,
          text: body,
          // Plain text from a model: no attachments, files or URLs for nodemailer to fetch.
          disableFileAccess: true,
          disableUrlAccess: true,
          signal: ctx.signal,
        });
        return {
          messageId: info.messageId,
          accepted: info.accepted.map(addressOf),
          rejected: info.rejected.map(addressOf),
        };
      } catch (error) {
        throw toMailError(error, ctx.signal);
      } finally {
        sender.close();
      }
    },
  });
}

function addressesSchema(description: string): Record<string, unknown> {
  return {
    description: `${description} One address or a list of addresses.`,
    anyOf: [
      { type: 'string', minLength: 3 },
      { type: 'array', items: { type: 'string', minLength: 3 }, minItems: 1 },
    ],
  };
}
