import assert from 'node:assert/strict';
import iconv from 'iconv-lite';
import ExcelJS from 'exceljs';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { ApiError, type AuthUser } from '@werkbank/sdk/node';
import { expectStatus } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  contentOf,
  link,
  newSwitchboard,
  runAndWait,
  SWITCHBOARD_PLUGINS,
  get,
  type Obj,
  type User,
} from '@werkbank/plugin-switchboards/testing';
import { frameUpload } from '@werkbank/plugin-switchboards/testing';
import { FileAccess } from '@werkbank/plugin-switchboards/api';

/** csv.import on files uploaded into frames, read through the Switchboards' FileAccess (decision 0018). */
describe('geodata: csv.import reads frame files with the running user’s permissions', function () {
  this.timeout(60_000);
  let t: TestServer;
  let alice: User;
  let bob: User;
  let files: FileAccess;
  const authUser = async (u: User): Promise<AuthUser> => (await t.server.accounts.loadAuthUser(u.id))!;

  before(async () => {
    t = await startTestServer({ plugins: [...SWITCHBOARD_PLUGINS, 'geodata'] });
    alice = await t.user();
    bob = await t.user();
    files = t.server.kernel.container.get<FileAccess>(FileAccess);
  });
  after(() => t?.close());

  async function uploaded(owner: User, name: string, bytes: Buffer): Promise<{ sb: Obj; frame: Obj; datum: Obj }> {
    const sb = await newSwitchboard(owner.client);
    const frame = await addFrame(owner.client, sb, 'file');
    const body = expectStatus<{ datum: Obj }>(await frameUpload(owner.client, frame.id, name, bytes), 201);
    return { sb, frame, datum: body.datum };
  }

  it('imports an uploaded windows-1252 CSV into a frame of rows', async () => {
    const csv = iconv.encode('Straße;Länge\nMüllerstraße;1,5\nÖlweg;2\n', 'windows-1252');
    const { sb, frame } = await uploaded(alice, 'strassen.csv', csv);
    const node = await addNode(alice.client, sb, 'csv.import', [
      { name: 'encoding', default_value: { value: 'windows-1252' } },
      { name: 'decimal', default_value: { value: ',' } },
    ]);
    const rows = await addFrame(alice.client, sb, 'row');
    await link(alice.client, node, 'file', frame, true);
    await link(alice.client, node, 'rows', rows, false);
    const exec = await runAndWait(t, alice.client, sb);
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    assert.deepEqual(await contentOf(alice.client, rows), [
      { value: { Straße: 'Müllerstraße', Länge: 1.5 } },
      { value: { Straße: 'Ölweg', Länge: 2 } },
    ]);
  });

  /** A switchboard: the uploaded file → `func` (with `ports`) → a frame of rows. */
  async function importing(
    name: string,
    bytes: Buffer,
    func: string,
    ports: Array<{ name: string; default_value: unknown }> = [],
  ) {
    const { sb, frame } = await uploaded(alice, name, bytes);
    const node = await addNode(alice.client, sb, func, ports);
    const rows = await addFrame(alice.client, sb, 'row');
    await link(alice.client, node, 'file', frame, true);
    await link(alice.client, node, 'rows', rows, false);
    return { sb, node, rows, exec: await runAndWait(t, alice.client, sb) };
  }

  it('imports the first sheet of an uploaded Excel workbook', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Pegel');
    ws.addRow(['ort', 'stand']);
    ws.addRow(['Dresden', 3.12]);
    const { rows, exec } = await importing('pegel.xlsx', Buffer.from(await wb.xlsx.writeBuffer()), 'excel.import');
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    assert.deepEqual(await contentOf(alice.client, rows), [{ value: { ort: 'Dresden', stand: 3.12 } }]);
  });

  it('fails the node with a message naming the file, line and column counts of a broken row', async () => {
    const { node, exec } = await importing('kaputt.csv', Buffer.from('a;b\n1;2\n3;4;5\n'), 'csv.import');
    assert.equal(exec.status, 'failure');
    const failed = await get(alice.client, node.resource_uri);
    assert.match(failed.runinfo.exception, /kaputt\.csv, line 3: 3 columns instead of 2/);
  });

  it('opens a file only for a user who may read its switchboard, and only while its frame holds it', async () => {
    const csv = Buffer.from('a;b\n1;2\n');
    const { frame, datum } = await uploaded(alice, 'geheim.csv', csv);
    const opened = await files.open(await authUser(alice), datum);
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    assert.deepEqual(Buffer.concat(chunks), csv);
    assert.equal(opened.name, 'geheim.csv');
    assert.equal(opened.size, csv.length);

    const notFound = (e: unknown) => e instanceof ApiError && e.status === 404;
    await assert.rejects(files.open(await authUser(bob), datum), notFound);
    await assert.rejects(files.open(await authUser(alice), { ...datum, download_url: 'https://example.org/x.csv' }), notFound);
    expectStatus(await alice.client.patch(frame.resource_uri, { content: [] }), 200);
    await assert.rejects(files.open(await authUser(alice), datum), notFound);
  });
});
