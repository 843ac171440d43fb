import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiError, FunctionInputs } from '@werkbank/sdk/node';
import { fakeRunContext } from '@werkbank/testing/node';
import { fileImport, LOCAL_IMPORT_MAX_FILES } from './local-import';
import { GeodataServices } from '../geodata-services';

describe('geodata sources: file.import', () => {
  let dir: string;
  let root: string;
  let outside: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'werkbank-local-import-'));
    root = join(dir, 'daten');
    outside = join(dir, 'geheim');
    await mkdir(join(root, 'lieferung', 'alt'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(root, 'punkte.csv'), 'name;x\nGörlitz;1\n');
    await writeFile(join(root, 'lieferung', 'b.geojson'), '{"type":"FeatureCollection","features":[]}');
    await writeFile(join(root, 'lieferung', 'a.csv'), 'a\n1\n');
    await writeFile(join(root, 'lieferung', '.versteckt'), 'x');
    await writeFile(join(root, 'lieferung', 'alt', 'c.csv'), 'c\n');
    await writeFile(join(outside, 'passwort.txt'), 'geheim');
    await symlink(join(outside, 'passwort.txt'), join(root, 'link.txt'));
    await symlink(outside, join(root, 'ordnerlink'));
    // A sibling whose name starts like the allowed folder's, and a second allowed folder.
    await mkdir(join(dir, 'daten2'));
    await writeFile(join(dir, 'daten2', 'x.csv'), 'x\n');
    await mkdir(join(dir, 'zweite'));
    await writeFile(join(dir, 'zweite', 'y.csv'), 'y\n');
    execFileSync('mkfifo', [join(root, 'rohr')]);
    // Written in an order that is neither sorted nor its reverse: the import sorts by name.
    await mkdir(join(root, 'gemischt'));
    for (const name of ['m.csv', 'z.csv', 'a.csv', 'q.csv', 'c.csv', 'x.csv', 'f.csv', 'k.csv'])
      await writeFile(join(root, 'gemischt', name), `${name}\n`);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const fn = (roots: string[]) => fileImport({ config: { fileImportRoots: roots } } as unknown as GeodataServices);
  const paths = (...xs: string[]): FunctionInputs => ({ path: xs.map((value) => ({ value })) });

  it('is for superusers only', () => {
    assert.equal(fn([root]).superuser_required, true);
  });

  it('outputs a file with its bytes, and the files of a folder (sorted, no subfolders, no hidden files)', async () => {
    const ctx = fakeRunContext();
    const out = await fn([root]).run(paths(join(root, 'punkte.csv'), 'lieferung'), ctx);
    assert.deepEqual(
      out.file.map((f) => f.value),
      ['punkte.csv', 'a.csv', 'b.geojson'],
    );
    assert.equal(ctx.files.get(String(out.file[0].stored_blob))!.bytes.toString('utf8'), 'name;x\nGörlitz;1\n');
    assert.deepEqual(ctx.progresses, [0.5, 1]);
    assert.deepEqual(
      ctx.logs,
      [join(root, 'punkte.csv'), join(root, 'lieferung', 'a.csv'), join(root, 'lieferung', 'b.geojson')].map(
        (name, i) => `imported ${name} (${String(out.file[i].size)} bytes)`,
      ),
    );
  });

  it('takes files below every allowed folder, relative paths from the first, and a folder named with a trailing slash', async () => {
    const second = join(dir, 'zweite');
    const out = await fn([`${root}/`, second]).run(paths('punkte.csv', join(second, 'y.csv'), 'gemischt'), fakeRunContext());
    assert.deepEqual(
      out.file.map((f) => f.value),
      ['punkte.csv', 'y.csv', ...['a', 'c', 'f', 'k', 'm', 'q', 'x', 'z'].map((n) => `${n}.csv`)],
    );
    await assert.rejects(fn([root, second]).run(paths(join(second, 'fehlt.csv')), fakeRunContext()), { code: 'path_missing' });
  });

  it('imports an allowed folder itself: its files, without links, pipes and subfolders', async () => {
    const out = await fn([root]).run(paths(root), fakeRunContext());
    assert.deepEqual(
      out.file.map((f) => f.value),
      ['punkte.csv'],
    );
  });

  it('refuses a pipe or device instead of a file, and a folder of more files than one import takes', async () => {
    await assert.rejects(
      fn([root]).run(paths('rohr'), fakeRunContext()),
      (e: ApiError) => e.code === 'not_a_file' && (e.params as { path: string }).path === 'rohr',
    );
    const many = join(root, 'viele');
    await mkdir(many);
    for (let i = 0; i < LOCAL_IMPORT_MAX_FILES; i++) await writeFile(join(many, `f${String(i).padStart(4, '0')}.csv`), '');
    // The pipe among them is no file: exactly the limit passes.
    execFileSync('mkfifo', [join(many, 'rohr')]);
    const out = await fn([root]).run(paths('viele'), fakeRunContext());
    assert.equal(out.file.length, LOCAL_IMPORT_MAX_FILES);
    await writeFile(join(many, 'eine-zu-viel.csv'), '');
    await assert.rejects(fn([root]).run(paths('viele'), fakeRunContext()), (e: ApiError) => {
      assert.deepEqual(
        [e.code, e.params],
        ['too_many_files', { path: 'viele', count: LOCAL_IMPORT_MAX_FILES + 1, limit: LOCAL_IMPORT_MAX_FILES }],
      );
      return true;
    });
    await rm(many, { recursive: true });
  });

  it('refuses paths outside the allowed folders, also through .. and symbolic links', async () => {
    const refused = async (path: string) =>
      assert.rejects(fn([root]).run(paths(path), fakeRunContext()), (e: ApiError) => e.code === 'path_outside_roots');
    await refused(join(outside, 'passwort.txt'));
    await refused(join(root, '..', 'geheim', 'passwort.txt'));
    await refused(join(root, 'link.txt'));
    await refused(join(root, 'ordnerlink', 'passwort.txt'));
    await refused('/etc/passwd');
    await refused(join(dir, 'daten2', 'x.csv'));
    // Whether a path outside exists is not told.
    await refused(join(outside, 'gibt-es-nicht.txt'));
    await refused(`${root}/../geheim/gibt-es-nicht.txt`);
    await refused('../geheim/gibt-es-nicht.txt');
  });

  it('says when a path inside does not exist, when none is given, and when no folder is allowed', async () => {
    const failure = async (inputs: FunctionInputs, roots = [root]) => {
      try {
        await fn(roots).run(inputs, fakeRunContext());
      } catch (e) {
        return [(e as ApiError).code, (e as ApiError).params];
      }
      assert.fail('the import ran');
    };
    assert.deepEqual(await failure(paths('fehlt.csv')), ['path_missing', { path: 'fehlt.csv' }]);
    assert.deepEqual(await failure(paths(join(root, 'fehlt.csv'))), ['path_missing', { path: join(root, 'fehlt.csv') }]);
    assert.deepEqual(await failure(paths('/etc/passwd')), ['path_outside_roots', { path: '/etc/passwd' }]);
    assert.deepEqual(await failure(paths('link.txt')), ['path_outside_roots', { path: 'link.txt' }]);
    assert.deepEqual(await failure(paths('punkte.csv', '  ')), ['path_empty', { item: 'path[1]' }]);
    assert.deepEqual(await failure({ path: [{ value: 7 }] }), ['path_empty', { item: 'path[0]' }]);
    assert.deepEqual(await failure(paths('/gibt/es/nicht.csv')), ['path_outside_roots', { path: '/gibt/es/nicht.csv' }]);
    await assert.rejects(fn([]).run(paths(join(root, 'punkte.csv')), fakeRunContext()), { code: 'local_import_off' });
  });

  it('stops when the run is aborted', async () => {
    const ctx = fakeRunContext();
    ctx.controller.abort(new Error('stopped'));
    await assert.rejects(fn([root]).run(paths('lieferung'), ctx), /stopped/);
  });
});
