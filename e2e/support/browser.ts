import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; these flags keep it off the network this machine does not have. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export const SCREENSHOTS = join('test-results', 'e2e');

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** A fresh profile per test; tabs of one context share localStorage, like a real browser's. */
export async function openBrowser(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'cadre-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ARGS,
    viewport: { width: 1200, height: 800 },
    colorScheme: 'light',
  });
  context.setDefaultTimeout(10_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** The README's pictures: written by the suite only when asked (`CADRE_WRITE_SCREENSHOTS=1`). */
export const README_SCREENSHOTS = join('docs', 'screenshots');

/**
 * Saves `name`-light.png and `name`-dark.png (the page follows
 * prefers-color-scheme); with `readme` and CADRE_WRITE_SCREENSHOTS=1, the
 * same pictures go to docs/screenshots/`readme`-light|dark.png as well.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { readme?: string } = {},
): Promise<void> {
  const folders = [{ folder: SCREENSHOTS, base: name }];
  if (options.readme && process.env.CADRE_WRITE_SCREENSHOTS === '1')
    folders.push({ folder: README_SCREENSHOTS, base: options.readme });
  for (const { folder } of folders) await mkdir(folder, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const { folder, base } of folders)
      await page.screenshot({ path: join(folder, `${base}-${colorScheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Signs in through the form, with the keyboard only. */
export async function signIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('API token').fill(token);
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'New thread' }).waitFor();
}
