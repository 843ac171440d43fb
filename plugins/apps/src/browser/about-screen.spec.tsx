import { bootPlugins, byTestId, typeInto, type BootedWorkbench } from '@werkbank/testing/browser';
import assert from 'node:assert/strict';
import appsBrowser from './apps-browser-module';

const ABOUT = {
  product: 'Werkbank',
  version: '0.1.0',
  node: 'v20.20.2',
  plugins: [
    { id: 'apps', title: 'Apps', package: '@werkbank/plugin-apps', version: '0.1.0', license: null, components: [] },
    {
      id: 'sessions',
      title: 'Sessions',
      package: '@werkbank/plugin-sessions',
      version: '0.1.0',
      license: 'MIT',
      components: ['sessions'],
    },
  ],
  components: [
    {
      id: 'sessions',
      enabled: true,
      licence: { id: 'development-ab12', licensee: 'Local development', expires: '2027-11-27T00:00:00Z', development: true },
      plugins: ['sessions'],
    },
    { id: 'parquet', enabled: false, licence: null, plugins: [] },
  ],
  third_party: [
    { name: 'koa', version: '3.0.0', license: 'MIT', homepage: 'https://koajs.com' },
    { name: 'pg', version: '8.16.0', license: 'MIT', homepage: null },
    { name: 'argon2-thing', version: '1.0.0', license: 'Apache-2.0', homepage: null },
    { name: 'odd', version: '0.0.1', license: null, homepage: null },
  ],
};

const rows = (id: string) =>
  [...document.querySelectorAll(`[data-testid="${id}"]`)].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));

describe('apps: the about page at /about/ (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('shows the version, the plugins, the components with their licences and the third-party licences', async () => {
    booted = await bootPlugins([{ manifest: { id: 'apps' }, module: appsBrowser }], '/about/', {
      'GET /api/v2/backend/about': ABOUT,
    });
    await booted.waitFor(() => !!byTestId('about-page'));
    assert.equal(byTestId('about-version')!.textContent, 'Version 0.1.0 · Node.js v20.20.2');
    assert.deepEqual(rows('about-plugin'), [
      ['Apps', '@werkbank/plugin-apps', '0.1.0', 'not stated', '–'],
      ['Sessions', '@werkbank/plugin-sessions', '0.1.0', 'MIT', 'sessions'],
    ]);
    assert.deepEqual(rows('about-component'), [
      ['sessions', 'licensed', 'Local development (development-ab12) · local development licence', '27 Nov 2027'],
      ['parquet', 'not licensed', '–', '–'],
    ]);
    assert.equal(byTestId('about-licence-summary')!.textContent, 'MIT: 2 · Apache-2.0: 1 · not stated: 1');
    assert.equal(rows('about-package').length, 4);
    assert.equal(document.querySelector('[data-testid="about-package"] a')!.getAttribute('href'), 'https://koajs.com');
    assert.ok(byTestId('menu-apps.about-menu'), 'About is in the user menu');
  });

  it('filters the third-party packages by name or licence', async () => {
    booted = await bootPlugins([{ manifest: { id: 'apps' }, module: appsBrowser }], '/about/', {
      'GET /api/v2/backend/about': ABOUT,
    });
    await booted.waitFor(() => !!byTestId('about-filter'));
    typeInto(byTestId('about-filter') as HTMLInputElement, 'apache');
    await booted.waitFor(() => rows('about-package').length === 1);
    assert.deepEqual(rows('about-package'), [['argon2-thing', '1.0.0', 'Apache-2.0']]);
    assert.ok(byTestId('about-page')!.textContent!.includes('1 of 4 packages shown'));
  });

  it('says why when the information cannot be loaded', async () => {
    booted = await bootPlugins([{ manifest: { id: 'apps' }, module: appsBrowser }], '/about/', {
      'GET /api/v2/backend/about': () => {
        throw new Error('The server is not reachable.');
      },
    });
    await booted.waitFor(() => !!document.querySelector('[role="alert"]'));
    assert.ok(
      document
        .querySelector('[role="alert"]')!
        .textContent!.includes('Failed to load the information about Werkbank: The server is not reachable.'),
    );
  });
});
