import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestServer, type TestClient, type TestServer, type TestServerOptions } from '@werkbank/testing/node';

/** Debian's Chromium (no browser downloads); CHROMIUM_PATH overrides. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function login(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/accounts/login/`);
  await page.fill('#wb-login-username', username);
  await page.fill('#wb-login-password', password);
  await Promise.all([page.waitForURL(`${baseUrl}/`), page.click('button[type=submit]')]);
}

export interface BrowserSuite {
  t: TestServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The administrator's API client (set when `admin` was asked for). */
  admin: TestClient;
}

/**
 * The hooks every browser suite needs: one server and one Chromium per suite, a fresh browser
 * context and page per test (signed in as the administrator unless `signIn` is false), a screenshot
 * in the temp folder when a test fails. `bind` receives the current parts after each hook, so specs
 * keep their own variables: `browserSuite({...}, (s) => ({ t, page } = s))`.
 */
export function browserSuite(
  options: {
    server?: TestServerOptions;
    viewport?: { width: number; height: number };
    signIn?: boolean;
    admin?: boolean;
    /** Runs once the server is up (e.g. to create users), before the browser starts. */
    setUp?: (t: TestServer) => Promise<void>;
  },
  bind: (s: BrowserSuite) => void,
): void {
  const s = {} as BrowserSuite;
  before(function () {
    // A spec run directly (not through `npm run test:e2e`) must not test a stale bundle: build it
    // when it is missing or older than the sources, as `npm start` does.
    this.timeout(10 * 60_000);
    execFileSync(process.execPath, [resolve(import.meta.dirname, '../../scripts/ensure-build.mjs')], { stdio: 'inherit' });
  });
  before(async () => {
    s.t = await startTestServer(options.server);
    if (options.admin) s.admin = await s.t.admin();
    await options.setUp?.(s.t);
    s.browser = await launchChromium();
    bind(s);
  });
  after(async () => {
    await s.browser?.close();
    await s.t?.close();
  });
  beforeEach(async () => {
    s.context = await s.browser.newContext({ viewport: options.viewport ?? { width: 1455, height: 900 } });
    s.page = await s.context.newPage();
    if (options.signIn !== false) await login(s.page, s.t.url, 'admin', s.t.adminPassword);
    bind(s);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      await s.page?.screenshot({ path: join(tmpdir(), `werkbank-e2e-failure-${Date.now()}.png`) }).catch(() => undefined);
    }
    await s.context?.close();
  });
}

/** The WCAG levels German public bodies must meet (BITV 2.0 = WCAG 2.1 AA). */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/**
 * The axe-core WCAG 2.1 AA violations of what the page shows now, as readable lines (rule, what,
 * where). An empty list means the screen passes. `exclude` leaves out selectors axe must not judge
 * (e.g. a third-party map canvas), each with its reason in the caller.
 */
export async function accessibilityViolations(page: Page, exclude: string[] = []): Promise<string[]> {
  const { createRequire } = await import('node:module');
  const { readFileSync } = await import('node:fs');
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol: the page's Content-Security-Policy forbids inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(source);
  const violations = (await page.evaluate(
    ([tags, excluded]) =>
      (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: unknown[] }> } }).axe
        .run({ exclude: excluded.map((s) => [s]) }, { runOnly: { type: 'tag', values: tags } })
        .then((r) => r.violations),
    [WCAG_AA, exclude] as const,
  )) as AxeViolation[];
  return violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${v.id} (${v.impact}): ${v.help} — ${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.replace(/\s+/g, ' ').slice(0, 200)})` : ''}`,
    ),
  );
}

/** Fails when the page as it is now has WCAG 2.1 AA violations (axe-core), listing each. */
export async function expectAccessible(page: Page, exclude: string[] = []): Promise<void> {
  const found = await accessibilityViolations(page, exclude);
  if (found.length) throw new Error(`WCAG 2.1 AA violations on ${page.url()}:\n${found.join('\n')}`);
}
