import assert from 'node:assert/strict';
import { bootWorkbench, type BootedWorkbench } from '@werkbank/testing/browser';
import { createElement } from '@werkbank/sdk/react';
import { DatumEditorHost, definePlugin, RouteContribution, type RouteContribution as RC } from '@werkbank/sdk/browser';
import typesBrowser from './types-browser-module';

const probe = (types: string[]): RC => ({
  registerRoutes: (r) =>
    r.add({
      id: 'probe.editors',
      path: '/probe/',
      component: () =>
        createElement(
          'div',
          null,
          types.map((type) =>
            createElement(
              'section',
              { key: type, 'data-type': type },
              createElement(DatumEditorHost, { contentType: type, value: null, onChange: () => undefined }),
            ),
          ),
        ),
    }),
});

describe('datum editors chosen by content type (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  async function editorsFor(types: string[]): Promise<Record<string, string | undefined>> {
    const probePlugin = definePlugin((ctx) => ctx.contribute(RouteContribution, probe(types)));
    booted = await bootWorkbench(
      [
        { manifest: { id: 'types' }, module: typesBrowser },
        { manifest: { id: 'probe', requires: ['types'] }, module: probePlugin },
      ],
      { path: '/probe/' },
    );
    await booted.waitFor(() => booted!.root.querySelectorAll('section').length === types.length);
    return Object.fromEntries(
      types.map((type) => [
        type,
        booted!.root.querySelector(`section[data-type="${type}"] [data-testid^="datum-editor-"]`)?.getAttribute('data-testid') ??
          undefined,
      ]),
    );
  }

  it('uses a type’s own editor, inherits along the base chain, and falls back to the generic editor', async () => {
    const found = await editorsFor(['color', 'int', 'float', 'label', 'bool', 'bbox', '/api/v1/type/number/', 'no-such-type']);
    assert.deepEqual(found, {
      color: 'datum-editor-color',
      int: 'datum-editor-number',
      float: 'datum-editor-number',
      label: 'datum-editor-string',
      bool: 'datum-editor-bool',
      bbox: 'datum-editor-generic',
      '/api/v1/type/number/': 'datum-editor-number',
      'no-such-type': 'datum-editor-generic',
    });
  });
});
