// Test-only: a real SMTP server on 127.0.0.1 (smtp-server) that keeps every delivered message.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

export interface Delivered {
  mailFrom: string | undefined;
  rcptTo: string[];
  /** The message exactly as the client sent it after DATA. */
  raw: string;
  user: string | undefined;
}

export interface TestSmtpServer {
  port: number;
  url(user?: string, pass?: string): string;
  messages: Delivered[];
  /** Connections opened, delivered or not: proves a refused call never reached the server. */
  connections: number;
  /** RCPT TO commands received. */
  recipientsSeen: number;
  /** Resolves once a RCPT TO is left unanswered (`stallAtRecipient`): the client waits mid-transaction. */
  stalled: Promise<void>;
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  /** Recipients the server answers 550 to. */
  rejectRecipients?: readonly string[];
  /** Never answer RCPT TO: the client is left waiting mid-transaction (for cancellation tests). */
  stallAtRecipient?: boolean;
  /**
   * Hold the reply to DATA this long. The message counts as delivered when its
   * data arrives, as a real server would deliver it, even if the client dies waiting.
   */
  dataReplyDelayMs?: number;
}

export async function startSmtpServer(options: TestSmtpOptions = {}): Promise<TestSmtpServer> {
  let stall = (): void => undefined;
  const stalled = new Promise<void>((resolve) => (stall = resolve));
  const state: TestSmtpServer = {
    port: 0,
    url: (user = 'cadre@example.com', pass = 'secret') =>
      `smtp://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${state.port}`,
    messages: [],
    connections: 0,
    recipientsSeen: 0,
    stalled,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const address = (a: SMTPServerAddress | false): string | undefined =>
    a === false ? undefined : a.address;
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      state.connections += 1;
      callback();
    },
    onAuth(auth, _session, callback) {
      if (auth.password !== 'secret') return callback(new Error('Invalid credentials'));
      callback(null, { user: auth.username });
    },
    onRcptTo(rcpt, _session, callback) {
      state.recipientsSeen += 1;
      if (options.stallAtRecipient) return stall();
      if (options.rejectRecipients?.includes(rcpt.address)) {
        return callback(Object.assign(new Error('No such user'), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        state.messages.push({
          mailFrom: address(session.envelope.mailFrom),
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: typeof session.user === 'string' ? session.user : undefined,
        });
        if (options.dataReplyDelayMs) setTimeout(() => callback(), options.dataReplyDelayMs);
        else callback();
      });
    },
  });
  // A client that dies mid-session (tests SIGKILL cadre processes) resets its socket: not a failure here.
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  state.port = (server.server.address() as AddressInfo).port;
  return state;
}

export interface ParsedMessage {
  /** Lower-cased header names, unfolded values (RFC 2047 words decoded). */
  headers: Map<string, string>;
  text: string;
}

/** Just enough MIME for nodemailer's single-part text messages. */
export function parseMessage(raw: string): ParsedMessage {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  const body = raw.slice(split + 4);
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { headers, text: text.replace(/\r\n/g, '\n').replace(/\n$/, '') };
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`), adjacent words joined. */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_all, _charset: string, kind: string, data: string) =>
        kind.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64').toString('utf8')
          : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const unwrapped = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < unwrapped.length; i++) {
    const hex = unwrapped.slice(i + 1, i + 3);
    if (unwrapped[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(unwrapped[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
