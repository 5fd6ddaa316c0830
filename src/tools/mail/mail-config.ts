import type { SMTPTransportOptions } from 'nodemailer';
import { ConfigError } from '../../errors/index.js';
import { checkEmailAddress } from './email-address.js';

/** Environment-like settings, passed in (never read from process.env here). */
export type MailEnv = Readonly<Record<string, string | undefined>>;

export type MailConfig =
  | { kind: 'smtp'; from: string; transport: SMTPTransportOptions }
  | { kind: 'gmail'; from: string; transport: SMTPTransportOptions };

const GMAIL_VARIABLES = [
  'GMAIL_USER',
  'GMAIL_CLIENT_ID',
  'GMAIL_CLIENT_SECRET',
  'GMAIL_REFRESH_TOKEN',
] as const;

// Bounded waits: a dead server must fail the call, not hang the run.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

const present = (env: MailEnv, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/**
 * Where gmail_send delivers: `CADRE_SMTP_URL` (any SMTP server) wins, else
 * Gmail over OAuth2 when every `GMAIL_*` variable is set. Messages name the
 * variables, never their values (a URL carries a password).
 */
export function resolveMailConfig(env: MailEnv): MailConfig {
  const url = present(env, 'CADRE_SMTP_URL');
  if (url !== undefined) return smtpConfig(env, url);
  const missing = GMAIL_VARIABLES.filter((name) => present(env, name) === undefined);
  if (missing.length === 0) return gmailConfig(env);
  if (missing.length < GMAIL_VARIABLES.length) {
    throw new ConfigError(
      `gmail_send: Gmail is partly configured; also set ${missing.join(', ')} (or set CADRE_SMTP_URL instead).`,
    );
  }
  throw new ConfigError(
    'gmail_send is not configured: set CADRE_SMTP_URL (e.g. smtp://user:pass@host:587 or smtps://…), ' +
      `or ${GMAIL_VARIABLES.join(', ')} for Gmail.`,
  );
}

function smtpConfig(env: MailEnv, url: string): MailConfig {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(
      'CADRE_SMTP_URL is not a valid URL (expected smtp://user:pass@host:port).',
    );
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new ConfigError('CADRE_SMTP_URL must start with smtp:// or smtps://.');
  }
  const user = safeDecode(parsed.username);
  const from = sender(env, user, 'the user name in CADRE_SMTP_URL');
  return { kind: 'smtp', from, transport: { url, ...TIMEOUTS } };
}

function gmailConfig(env: MailEnv): MailConfig {
  const [user, clientId, clientSecret, refreshToken] = GMAIL_VARIABLES.map(
    (name) => present(env, name) ?? '',
  );
  const from = sender(env, user, 'GMAIL_USER');
  return {
    kind: 'gmail',
    from,
    transport: {
      host: 'smtp.gmail.com',
      port: 465,
      secure: true,
      auth: { type: 'OAuth2', user, clientId, clientSecret, refreshToken },
      ...TIMEOUTS,
    },
  };
}

/** `CADRE_MAIL_FROM`, else the account's user name when it is an address. */
function sender(env: MailEnv, fallback: string | undefined, fallbackName: string): string {
  const explicit = present(env, 'CADRE_MAIL_FROM');
  if (explicit !== undefined) {
    const check = checkEmailAddress(explicit);
    if (!check.ok) throw new ConfigError('CADRE_MAIL_FROM is not a valid email address.');
    return check.address;
  }
  const check = checkEmailAddress(fallback ?? '');
  if (!check.ok) {
    throw new ConfigError(
      `gmail_send: set CADRE_MAIL_FROM (${fallbackName} is not an email address to send from).`,
    );
  }
  return check.address;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
