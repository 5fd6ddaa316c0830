import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GREETING, MAIL } from './support/assistant-script.js';
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
const composer = (page: Page) => page.locator('.composer');
const prompt = (page: Page) => page.getByLabel('Your message', { exact: true });
const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Threads' });
const SENT = `Sent: the mail about "${MAIL.subject}" went to ${MAIL.to}.`;
/** "at 02:02 PM", "at 14:02": whatever the browser's clock format is. */
const AT = String.raw`at \d{1,2}:\d{2}(?: [AP]M)?`;

/** Every API request fails as it does when the server is stopped; the page itself stays loaded. */
async function serverDown(page: Page): Promise<void> {
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
}
const serverUp = (page: Page) => page.unroute('**/api/**');

async function askForMail(page: Page, text = 'Mail Bob about lunch'): Promise<void> {
  await prompt(page).fill(text);
  await prompt(page).press('Enter');
  await card(page).waitFor();
  await page.waitForURL(/\/threads\/[^/]+$/);
}

/**
 * Nothing is cut off: neither the page nor its main column (which scrolls on
 * its own) is wider than the window; wide content scrolls inside its own box.
 */
async function pageWidth(page: Page): Promise<number> {
  const widest = await page.evaluate(
    'Math.max(document.documentElement.scrollWidth, document.querySelector("main")?.scrollWidth ?? 0)',
  );
  return Number(widest);
}

describe('web page: trust (model behaviour is scripted; real server, SMTP, SQLite, Chromium)', () => {
  it('a message typed while the server is down is kept, the error shows at the composer, and retry sends it', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await serverDown(page);
    const text = 'Hi, while the server is down';
    await prompt(page).fill(text);
    await prompt(page).press('Enter');

    const alert = composer(page).getByRole('alert');
    await alert.getByText('Cannot reach the server — your message is kept.').waitFor();
    expect(await prompt(page).inputValue()).toBe(text);
    // Not sent, so not shown as a message either.
    expect(await page.locator('.message-user', { hasText: text }).count()).toBe(0);
    expect(await sidebar(page).getByRole('alert').count()).toBe(0);
    expect(await page.getByText('Failed to fetch').count()).toBe(0);
    await screenshot(page, '12-server-down');

    // A reload while the server is still down: the draft is still there, the sidebar stays quiet.
    await page.reload();
    await sidebar(page).getByText('Threads are not loaded yet.').waitFor();
    expect(await prompt(page).inputValue()).toBe(text);
    expect(await sidebar(page).getByRole('alert').count()).toBe(0);

    await serverUp(page);
    await prompt(page).press('Enter');
    await page
      .locator('.message-assistant .message-text', { hasText: GREETING.join('') })
      .waitFor();
    expect(await page.locator('.message-user', { hasText: text }).count()).toBe(1);
    expect(await prompt(page).inputValue()).toBe('');
    expect(await composer(page).getByRole('alert').count()).toBe(0);
    // Accepted, so the kept copy is gone: a reload shows an empty box.
    await page.reload();
    await page.locator('.message-user', { hasText: text }).waitFor();
    expect(await prompt(page).inputValue()).toBe('');
  });

  it('the notice offers "Retry sending", and drafts are kept per thread', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await prompt(page).fill('Hi');
    await prompt(page).press('Enter');
    await page
      .locator('.message-assistant .message-text', { hasText: GREETING.join('') })
      .waitFor();
    await page.waitForURL(/\/threads\/[^/]+$/);
    const thread = page.url();

    await serverDown(page);
    await prompt(page).fill('A follow-up that must not be lost');
    await prompt(page).press('Enter');
    const retry = composer(page).getByRole('button', { name: 'Retry sending' });
    await retry.waitFor();

    // Another thread has its own (empty) draft; coming back finds this one.
    await serverUp(page);
    await page.getByRole('button', { name: 'New thread' }).click();
    expect(await prompt(page).inputValue()).toBe('');
    await page.goto(thread);
    await page.locator('.message-assistant', { hasText: GREETING.join('') }).waitFor();
    expect(await prompt(page).inputValue()).toBe('A follow-up that must not be lost');

    await prompt(page).press('Enter');
    await expect
      .poll(() => page.locator('.message-assistant', { hasText: GREETING.join('') }).count())
      .toBe(2);
    expect(await prompt(page).inputValue()).toBe('');
  });

  it('a decision that cannot reach the server keeps the card, with the error on it', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await askForMail(page);
    await card(page).getByLabel('Feedback for the agent (optional)').fill('Ask Carol');
    await serverDown(page);
    await card(page).getByRole('button', { name: 'Reject' }).click();
    await card(page)
      .getByRole('alert')
      .getByText('Cannot reach the server — your decision was not sent.')
      .waitFor();
    expect(await card(page).getByLabel('Feedback for the agent (optional)').inputValue()).toBe(
      'Ask Carol',
    );
    await serverUp(page);
    await card(page).getByRole('button', { name: 'Reject' }).click();
    await page.getByText('Understood, I did not send it. Your feedback: "Ask Carol"').waitFor();
    expect(app.smtp.messages).toHaveLength(0);
  });

  it('the card closes once the decision is stored, while the resumed run is still going', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await askForMail(page);
    const release = app.model.holdAnswers();
    await card(page).getByRole('button', { name: 'Approve once' }).click();
    await card(page).waitFor({ state: 'detached' });
    // Who decided shows on the message that asked; the model has not answered yet.
    await page
      .locator('.message-assistant', { hasText: 'I need your approval' })
      .getByText(new RegExp(`^Approved by ann ${AT}$`))
      .waitFor();
    // The resumed run streams on below, its call already shown as approved.
    const live = page.locator('.live[aria-busy="true"]');
    await live.locator('.step', { hasText: 'gmail_send(' }).getByText('Approved').waitFor();
    expect(await page.getByText(SENT).count()).toBe(0);
    await screenshot(page, '13-decided-run-going-on');
    release();
    await page.getByText(SENT).waitFor();
    expect(app.smtp.messages).toHaveLength(1);
  });

  it('after a reload, a thread shows its tool steps and who approved or rejected what', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await askForMail(page);
    await card(page).getByRole('button', { name: 'Approve once' }).click();
    await page.getByText(SENT).waitFor();
    await askForMail(page, 'Mail Bob about lunch once more');
    await card(page).getByLabel('Feedback for the agent (optional)').fill('Not Bob: ask Carol');
    await card(page).getByRole('button', { name: 'Reject' }).click();
    await page
      .getByText('Understood, I did not send it. Your feedback: "Not Bob: ask Carol"')
      .waitFor();

    await page.reload();
    const asks = page.locator('.message-assistant', { hasText: 'I need your approval' });
    await asks.first().waitFor();
    expect(await asks.nth(0).locator('.decision').textContent()).toMatch(
      new RegExp(`^Approved by ann ${AT}$`),
    );
    expect(await asks.nth(1).locator('.decision').textContent()).toMatch(
      new RegExp(`^Rejected by ann ${AT}: Not Bob: ask Carol$`),
    );
    const steps = page.locator('.step', { hasText: 'gmail_send(' });
    expect(await steps.count()).toBe(2);
    expect(await steps.nth(0).locator('.badge').textContent()).toBe('Done');
    expect(await steps.nth(0).locator('.step-preview').textContent()).toBe(
      `Send "${MAIL.subject}" to ${MAIL.to}`,
    );
    expect(await steps.nth(0).locator('.step-decision').textContent()).toMatch(
      new RegExp(`^approved by ann ${AT}$`),
    );
    expect(await steps.nth(1).locator('.badge').textContent()).toBe('Rejected');
    expect(await steps.nth(1).locator('.step-decision').textContent()).toMatch(
      new RegExp(`^by ann ${AT}: Not Bob: ask Carol$`),
    );
    await screenshot(page, '14-steps-after-reload');
  });

  it('every view fits 375 px: sign-in, chat, approval card, run timeline and audit', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(app.url);
    await page.getByRole('heading', { name: 'Sign in to Cadre' }).waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    await signIn(page, app.url, app.token);
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    // A long unbroken word must wrap inside its bubble, not widen the page.
    await askForMail(page, `Mail Bob about ${'lunch'.repeat(30)}`);
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    await card(page).getByRole('button', { name: 'Approve once' }).click();
    await page.getByText(SENT).waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    await screenshot(page, '15-chat-375');

    await page.getByRole('link', { name: 'Run timeline and audit' }).click();
    await page.getByRole('heading', { name: 'Run timeline' }).waitFor();
    const audit = page.getByRole('region', { name: 'Audit' });
    await audit.getByText(/Audit chain verified/).waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    await screenshot(page, '16-timeline-375');
    // The audit table scrolls inside its own box.
    await audit.scrollIntoViewIfNeeded();
    const box = await audit.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(375);
    const table = await audit
      .locator('.table-scroll')
      .evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(table.client).toBeLessThanOrEqual(375);
    await screenshot(page, '17-audit-375');
  });
});
