import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, signIn, type Browser } from './support/browser.js';
import { startApp, type RunningApp } from './support/start-app.js';

const composer = (page: Page) => page.getByLabel('Your message', { exact: true });
const failure = (page: Page) => page.locator('.message-assistant .run-failure');

/** The reply of the thread's one run: the failure box and the link to the run. */
async function expectFailureShown(page: Page): Promise<void> {
  await failure(page).waitFor();
  expect(await failure(page).textContent()).toMatch(/Cannot reach a model.*GEMINI_API_KEY/);
  const link = page.locator('.message-assistant .run-link');
  expect(await link.getAttribute('href')).toMatch(/^\/runs\/[^/]+$/);
}

describe('web page with no model key (real server, SQLite, Chromium; no model at all)', () => {
  let app: RunningApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await startApp({ noModel: true });
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

  it('a run that fails before its first event shows why in its thread, with its run link, live and after a reload', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await composer(page).fill('Email bob@example.com about lunch');
    await composer(page).press('Enter');
    await page.waitForURL(/\/threads\/[^/]+$/);
    await expectFailureShown(page);
    await screenshot(page, '20-no-model-failure');

    await page.reload();
    await expectFailureShown(page);
    // The prompt stays, once, above its failure.
    expect(await page.locator('.message-user').count()).toBe(1);

    // The link opens the run, failed, with the same reason.
    await page.locator('.message-assistant .run-link').click();
    await page.waitForURL(/\/runs\/[^/]+$/);
    await page
      .getByText(/GEMINI_API_KEY/)
      .first()
      .waitFor();
  });

  it("cadre serve's sign-in link signs in once from its fragment, leaves nothing in the address bar, and is refused the second time", async () => {
    const { page } = browser;
    const link = app.signInLink();
    const code = new URL(link).hash.replace('#token=', '');
    await page.goto(link);
    await page.getByRole('button', { name: 'New thread' }).waitFor();
    expect(new URL(page.url()).hash).toBe('');
    // The session is a token of its own, not the link's code.
    const kept = await page.evaluate("window.localStorage.getItem('cadre.token')");
    expect(kept).toMatch(/\S/);
    expect(kept).not.toBe(code);
    // Signed in for good: a reload stays in.
    await page.reload();
    await page.getByRole('button', { name: 'New thread' }).waitFor();

    // The same link in another browser (someone who copied it): refused, saying why.
    const other = await openBrowser();
    try {
      await other.page.goto(link);
      await other.page
        .getByRole('alert')
        .getByText(/sign-in link was already used/)
        .waitFor();
      expect(new URL(other.page.url()).hash).toBe('');
      expect(await other.page.evaluate("window.localStorage.getItem('cadre.token')")).toBeNull();
      await other.page.getByLabel('API token').waitFor();
    } finally {
      await other.close();
    }
  });
});
