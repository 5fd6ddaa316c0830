import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIL } from './support/assistant-script.js';
import { openBrowser, screenshot, signIn, type Browser } from './support/browser.js';
import { startApp, type RunningApp } from './support/start-app.js';

let app: RunningApp;
let browser: Browser;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  browser = await openBrowser();
});
afterEach(async () => {
  await browser.close();
});

const card = (page: Page) => page.getByRole('article', { name: /Approval needed/ });
const headers = (token: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
});

/** A mail prompt through the OpenAI-compatible endpoint: the scripted model's gmail_send waits. */
async function mailThroughV1(token: string): Promise<string> {
  const res = await fetch(`${app.url}/v1/chat/completions`, {
    method: 'POST',
    headers: headers(token),
    body: JSON.stringify({
      model: 'cadre',
      messages: [{ role: 'user', content: 'Mail Bob about lunch' }],
    }),
  });
  const text = await res.text();
  // The answer prints where a person decides; the page must have the buttons there.
  const link = new RegExp(`${app.url}/runs/[^\\s",]+`).exec(text)?.[0];
  if (!link) throw new Error(`no run link in the /v1 answer: ${text}`);
  return link;
}

describe('web page: approvals inbox and always-allowed grants (model behaviour is scripted; real server, SMTP, SQLite, Chromium)', () => {
  it('the link a /v1 answer prints lands on the approve / reject buttons; the inbox and thread badge list what waits', async () => {
    const token = await app.tokenFor('ivy');
    const link = await mailThroughV1(token);
    await mailThroughV1(token);
    const { page } = browser;
    await signIn(page, app.url, token);

    const nav = page.getByRole('link', { name: /^Approvals/ });
    await nav.getByLabel('2 waiting').waitFor();
    // Each thread that waits carries its own badge.
    // The thread list loads on its own: wait for both badges rather than read it once.
    await expect
      .poll(() => page.locator('.thread-list').getByLabel('1 waiting for you').count())
      .toBe(2);

    await page.goto(link);
    await page.getByRole('heading', { name: 'This run waits for your approval' }).waitFor();
    await expect.poll(() => card(page).count()).toBe(1);
    expect(await card(page).locator('pre').textContent()).toBe(
      `Send "${MAIL.subject}" to ${MAIL.to}`,
    );
    await screenshot(page, '30-run-link-approval');
    const sent = app.smtp.messages.length;
    await card(page).getByRole('button', { name: 'Approve once' }).click();
    await page.getByText(/^Approved: Send "Lunch" to bob@example.com/).waitFor();
    await nav.getByLabel('1 waiting').waitFor();
    await expect.poll(() => app.smtp.messages.length).toBe(sent + 1);

    await nav.click();
    await page.waitForURL(/\/approvals$/);
    await page.getByRole('heading', { name: 'Approvals waiting for you' }).waitFor();
    await expect.poll(() => card(page).count()).toBe(1);
    await screenshot(page, '31-approvals-inbox');
    await card(page).getByRole('button', { name: 'Reject' }).click();
    await page.getByText('Nothing is waiting for you.').waitFor();
    await expect.poll(() => nav.getByLabel(/waiting/).count()).toBe(0);
    expect(app.smtp.messages.length).toBe(sent + 1);

    // A reload of the inbox's own address serves the page.
    await page.reload();
    await page.getByRole('heading', { name: 'Approvals waiting for you' }).waitFor();
  });

  it('an "always allow" shows on the grants page with its agent, and revoking it makes the agent ask again', async () => {
    const token = await app.tokenFor('gus');
    const { page } = browser;
    await signIn(page, app.url, token);
    const prompt = page.getByLabel('Your message', { exact: true });
    await prompt.fill('Mail Bob about lunch');
    await prompt.press('Enter');
    await card(page).getByRole('button', { name: 'Always allow for this recipient' }).click();
    await page.getByText(`Sent: the mail about "${MAIL.subject}" went to ${MAIL.to}.`).waitFor();

    // The next mail to Bob runs unasked, and its step says under whose rule.
    await prompt.fill('Mail Bob about lunch once more');
    await prompt.press('Enter');
    await page
      .locator('.step', { hasText: 'gmail_send' })
      .getByText(/^allowed by your rule for bob@example\.com, set \d/)
      .waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await screenshot(page, '33-step-allowed-by-grant');
    // Stored with the run: a reload shows it too.
    await page.reload();
    await page
      .locator('.step', { hasText: 'gmail_send' })
      .getByText(/^allowed by your rule for bob@example\.com, set \d/)
      .waitFor();

    await page.getByRole('link', { name: 'Always allowed' }).click();
    await page.waitForURL(/\/grants$/);
    const row = page.getByRole('row', { name: /gmail_send/ });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells.slice(0, 3)).toEqual(['assistant', 'gmail_send', MAIL.to]);
    expect(cells[3]).toMatch(/ by gus$/);
    await screenshot(page, '32-grants');

    await row.getByRole('button', { name: /^Revoke/ }).click();
    await page
      .getByText(`Revoked: assistant will ask before gmail_send reaches ${MAIL.to} again.`)
      .waitFor();
    await page.getByText('You have not always-allowed anything.').waitFor();
    const listed = await fetch(`${app.url}/api/grants`, { headers: headers(token) });
    expect(((await listed.json()) as { grants: unknown[] }).grants).toEqual([]);

    // Asked again: the next mail to Bob waits for a person.
    const again = await fetch(`${app.url}/api/agent/run`, {
      method: 'POST',
      headers: headers(token),
      body: JSON.stringify({ prompt: 'Mail Bob about lunch again' }),
    });
    expect(((await again.json()) as { status: string }).status).toBe('awaiting_confirmation');
  });
});
