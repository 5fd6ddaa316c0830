import { openStore } from '../store/open-store.js';
import type { TestSmtpServer } from '../tools/mail/testing/test-support.js';
import type { FakeServer } from './fake-turn.js';

/** What the run and resolve routes answer (the fields these tests read). */
export interface RunResult {
  runId: string;
  threadId: string;
  status: string;
  summary: string;
  approvals: Array<{ approvalId: string }>;
}

/** A bearer token for `user` in the store at `db` (created there on first use). */
export async function tokenFor(db: string, user = 'ann'): Promise<string> {
  const store = await openStore({ url: db });
  try {
    return (await store.auth.createToken((await store.auth.ensureUser(user)).id)).token;
  } finally {
    await store.close();
  }
}

/** The environment of a `cadre` process that mails through `smtp` and asks the fake Gemini `gemini`. */
export function mailerEnv(
  smtp: TestSmtpServer,
  gemini: FakeServer,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    CADRE_SMTP_URL: smtp.url(),
    CADRE_MAIL_FROM: 'bot@example.com',
    GEMINI_API_KEY: 'test-key',
    GOOGLE_GEMINI_BASE_URL: gemini.baseUrl,
    ...extra,
  };
}

/** How many mails the test SMTP server took for `address`. */
export const mailsTo = (smtp: TestSmtpServer, address: string): number =>
  smtp.messages.filter((m) => m.rcptTo.includes(address)).length;
