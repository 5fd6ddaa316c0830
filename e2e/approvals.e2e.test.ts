import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseMessage } from '../src/tools/mail/testing/test-support.js';
import { MAIL } from './support/assistant-script.js';
import { openBrowser, screenshot, signIn, type Browser } from './support/browser.js';
import { startApp, type RunningApp } from './support/start-app.js';

let app: RunningApp;
let browser: Browser;
beforeEach(async () => {
  app = await startApp();
  browser = await openBrowser();
});
afterEach(async () => {
  await browser.close();
  await app.close();
});

const card = (page: Page) => page.getByRole('article', { name: /Approval needed/ });

/** Signs in and asks for a mail: the scripted model calls gmail_send, which waits for approval. */
async function askForMail(page: Page): Promise<void> {
  await signIn(page, app.url, app.token);
  const prompt = page.getByLabel('Your message', { exact: true });
  await prompt.fill('Mail Bob about lunch');
  await prompt.press('Enter');
  await card(page).waitFor();
  await page.waitForURL(/\/threads\/[^/]+$/);
}

describe('web page: approval cards (model behaviour is scripted; real server, SMTP, SQLite, Chromium)', () => {
  it('shows what and why, keeps the card across a reload, and approving sends the mail and streams the answer', async () => {
    const { page } = browser;
    await askForMail(page);
    const pending = card(page);
    expect(await pending.locator('pre').textContent()).toBe(`Send "${MAIL.subject}" to ${MAIL.to}`);
    expect(await pending.textContent()).toContain('gmail_send changes the world outside');
    await page
      .locator('.step', { hasText: 'gmail_send(' })
      .getByText('Awaiting approval')
      .waitFor();
    expect(app.smtp.messages).toHaveLength(0);
    await screenshot(page, '04-approval-card', { readme: 'thread-approval' });

    await page.reload();
    await card(page).waitFor();
    expect(await card(page).locator('pre').textContent()).toBe(
      `Send "${MAIL.subject}" to ${MAIL.to}`,
    );
    await screenshot(page, '05-approval-card-after-reload');

    // Keyboard only: the decision buttons are real buttons.
    await card(page).getByRole('button', { name: 'Approve once' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText(`Sent: the mail about "${MAIL.subject}" went to ${MAIL.to}.`).waitFor();
    await card(page).waitFor({ state: 'detached' });
    // After the reload the step is rebuilt from the card, then finished by the resumed run.
    await page
      .locator('.step', { hasText: `Send "${MAIL.subject}"` })
      .getByText('Done')
      .waitFor();
    expect(app.smtp.messages).toHaveLength(1);
    expect(app.smtp.messages[0]?.rcptTo).toEqual([MAIL.to]);
    expect(parseMessage(app.smtp.messages[0]?.raw ?? '').text).toBe(MAIL.body);
    await screenshot(page, '06-approved-answer');

    await page.getByRole('link', { name: 'Run timeline and audit' }).click();
    const audit = page.getByRole('region', { name: 'Audit' });
    await audit.getByText(/Audit chain verified \(\d+ entries/).waitFor();
    expect(await audit.locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
    await audit.scrollIntoViewIfNeeded();
    await screenshot(page, '08-audit');
  });

  it('a rejection with feedback sends nothing, and the next scripted reply uses the feedback', async () => {
    const { page } = browser;
    await askForMail(page);
    const feedback = 'Not Bob: ask Carol instead';
    await card(page).getByLabel('Feedback for the agent (optional)').fill(feedback);
    await screenshot(page, '09-reject-with-feedback');
    await card(page).getByRole('button', { name: 'Reject' }).click();
    await page.getByText(`Understood, I did not send it. Your feedback: "${feedback}"`).waitFor();
    await card(page).waitFor({ state: 'detached' });
    await page.locator('.step', { hasText: 'gmail_send(' }).getByText('Rejected').waitFor();
    expect(app.smtp.messages).toHaveLength(0);
    expect(app.smtp.connections).toBe(0);
    await screenshot(page, '10-rejected-answer');
  });

  it('a second tab deciding the same approval is told it was decided elsewhere, then sees the outcome', async () => {
    const { page, context } = browser;
    await askForMail(page);
    const second = await context.newPage();
    await second.goto(page.url());
    await card(second).waitFor();

    await card(page).getByRole('button', { name: 'Approve once' }).click();
    await page.getByText(/^Sent: the mail/).waitFor();

    await card(second).getByRole('button', { name: 'Approve once' }).click();
    await second
      .getByRole('status')
      .getByText('This approval was already decided in another tab or window.')
      .waitFor();
    // The thread is reloaded: the stale card goes and the first tab's outcome shows.
    await card(second).waitFor({ state: 'detached' });
    await second.getByText(/^Sent: the mail/).waitFor();
    expect(app.smtp.messages).toHaveLength(1);
    await screenshot(second, '11-decided-in-another-tab');
  });

  it('"Always allow for this recipient" sends now, and the next mail to them needs no card', async () => {
    const { page } = browser;
    await askForMail(page);
    await card(page).getByRole('button', { name: 'Always allow for this recipient' }).click();
    await page.getByText(/^Sent: the mail/).waitFor();
    const prompt = page.getByLabel('Your message', { exact: true });
    await prompt.fill('Mail Bob about lunch again');
    await prompt.press('Enter');
    await expect.poll(() => page.getByText(/^Sent: the mail/).count()).toBe(2);
    expect(await card(page).count()).toBe(0);
    expect(app.smtp.messages).toHaveLength(2);
  });
});
