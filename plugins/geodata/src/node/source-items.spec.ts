import assert from 'node:assert/strict';
import { createI18n } from '@werkbank/sdk/node';
import { fakeRunContext } from '@werkbank/testing/node';
import { append, named, part } from './source-items';
import { sourcesFailure } from './sources/download-text';
import en from './sources/i18n/en.json' with { type: 'json' };
import de from './sources/i18n/de.json' with { type: 'json' };

describe('geodata source items: named', () => {
  const i18n = createI18n([{ id: 'test.sources', namespace: 'geodata-sources', de, en }]);
  const say = (lang: 'de' | 'en', e: { key: string; params: Record<string, unknown> }) =>
    i18n.getFixedT(lang, 'server')(e.key, e.params);

  it('names the file in the messages of the zip and XML checks, which do not know it themselves', async () => {
    type Failure = { key: string; params: Record<string, unknown> };
    const failure = (await named(
      Promise.reject(sourcesFailure('zip_unsafe_path', { name: '../../etc/cron.d/x' })),
      'gebiete.zip',
    ).then(
      () => assert.fail('named must pass the failure on'),
      (e: unknown) => e,
    )) as Failure;
    assert.equal(failure.params.source, 'gebiete.zip');
    assert.match(say('en', failure), /^The ZIP archive gebiete\.zip contains the path '\.\.\/\.\.\/etc\/cron\.d\/x'/);
    assert.match(say('de', failure), /^Das ZIP-Archiv gebiete\.zip enthält den Pfad/);
    // Without a file to name, the plain message.
    assert.match(say('en', sourcesFailure('zip_unsafe_path', { name: 'x' }) as never), /^The ZIP archive contains the path 'x'/);
  });

  it('has a variant naming the file for every zip and XML check, in both languages with the same placeholders', () => {
    const holes = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    const errors = en.errors as Record<string, string>;
    for (const key of Object.keys(errors).filter((k) => /^(zip_|xml_doctype)/.test(k) && !k.endsWith('_source'))) {
      const variant = `${key}_source`;
      assert.ok(errors[variant], variant);
      assert.deepEqual(holes(errors[variant]), [...holes(errors[key]), 'source'].sort(), variant);
      assert.deepEqual(holes((de.errors as Record<string, string>)[variant]), holes(errors[variant]), `de ${variant}`);
    }
  });
});

describe('geodata source items: failures of other kinds, appending, parts of a run', () => {
  it('passes on a failure without parameters as it is', async () => {
    const plain = new Error('disk full');
    await assert.rejects(named(Promise.reject(plain), 'a.csv'), (e) => e === plain && !('params' in plain));
    const odd = Object.assign(new Error('odd'), { params: 'text' });
    await assert.rejects(named(Promise.reject(odd), 'a.csv'), (e) => e === odd && odd.params === 'text');
    const items = [{ value: 1 }];
    assert.equal(await named(Promise.resolve(items), 'a.csv'), items);
  });

  it('appends items in order', () => {
    const all = [{ value: 1 }];
    append(all, [{ value: 2 }, { value: 3 }]);
    assert.deepEqual(all, [{ value: 1 }, { value: 2 }, { value: 3 }]);
  });

  it("gives each of n sources its share of the run's progress", () => {
    const ctx = fakeRunContext();
    part(ctx, 0, 4).progress(0.5);
    part(ctx, 2, 4).progress(0);
    part(ctx, 3, 4).progress(1);
    assert.deepEqual(ctx.progresses, [0.125, 0.5, 1]);
    assert.equal(part(ctx, 1, 4).user, ctx.user);
  });
});
