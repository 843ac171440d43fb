import assert from 'node:assert/strict';
import type { TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus } from './api-test-support';
import { addDatum, newDepot, newFolder } from '@werkbank/plugin-magazine/testing';
import {
  addFrame,
  addNode,
  contentOf,
  FRAMES,
  get,
  newSwitchboard,
  runAndWait,
  switchboardServer,
  type User,
} from '@werkbank/plugin-switchboards/testing';
import { SwitchboardDepotAddresses1764500300100 } from '../../plugins/switchboards/src/node/depot-address-migration';
import { MagazineDepotAddresses1764500300000 } from '../../plugins/magazine/src/node/depot-address-migration';

/**
 * A depot datum names its depot one way everywhere: by address (issue 14 item 12). The depot path
 * editor's `Folder/Depot` form is refused when saved and turned into addresses where it is stored.
 */
describe('depot datums: one representation, the depot’s address', function () {
  this.timeout(60_000);
  const server = switchboardServer();
  let t: TestServer;
  let alice: User;
  before(() => ({ t, alice } = server.get()));
  const q = (sql: string, params: unknown[] = []) => t.server.db.dataSource.query(sql, params);
  const migrate = async () => {
    const runner = t.server.db.dataSource.createQueryRunner();
    try {
      await new MagazineDepotAddresses1764500300000().up(runner);
      await new SwitchboardDepotAddresses1764500300100().up(runner);
    } finally {
      await runner.release();
    }
  };

  it('takes an address, which depot.read reads, and refuses a path with a message naming the form', async () => {
    const c = alice.client;
    const sb = await newSwitchboard(c);
    const refused = await c.post(FRAMES, {
      switchboard: sb.resource_uri,
      content_type: 'depot',
      content: [{ value: 'Projekte/Pegel' }],
    });
    assertError(refused, 400, 'invalid_value');
    assert.equal(refused.body.field, 'content[0].value');
    const depot = await newDepot(c, 'string');
    const { moment_id } = await addDatum(c, depot, { value: 'Elbe' });
    expectStatus(await c.post(`/api/v1/moment/${moment_id}/approve/`, {}), 200);
    const frame = await addFrame(c, sb, 'depot', [{ value: depot.resource_uri }]);
    const out = await addFrame(c, sb, 'any');
    const read = await addNode(c, sb, 'depot.read');
    expectStatus(
      await c.post('/api/v1/link/', { node: read.resource_uri, frame: frame.resource_uri, name: 'depot', is_input: true }),
      201,
    );
    expectStatus(
      await c.post('/api/v1/link/', { node: read.resource_uri, frame: out.resource_uri, name: 'datums', is_input: false }),
      201,
    );
    assert.equal((await runAndWait(t, c, sb)).status, 'success');
    assert.deepEqual(await contentOf(c, out), [{ value: 'Elbe' }]);
  });

  it('turns stored depot paths into the addresses of the depots they name, in frames, node parameters and depots', async () => {
    const c = alice.client;
    const projekte = await newFolder(c, `Projekte ${Date.now()}`);
    const pegel = await newDepot(c, 'string', { name: 'Pegel', folder: projekte.resource_uri });
    const atRoot = await newDepot(c, 'string', { name: `Wurzel ${Date.now()}` });
    const sb = await newSwitchboard(c);
    const frame = await addFrame(c, sb, 'depot', [{ value: pegel.resource_uri }, { value: atRoot.resource_uri }, { value: '' }]);
    const node = await addNode(c, sb, 'depot.read', [{ name: 'depot', default_value: { value: pegel.resource_uri } }]);
    const depots = await newDepot(c, 'depot');
    const datum = await addDatum(c, depots, { value: atRoot.resource_uri });
    // As the depot path editor stored them before.
    const [{ content_hash }] = (await q(`SELECT content_hash FROM switchboard_frame WHERE id = $1`, [frame.id])) as {
      content_hash: string;
    }[];
    const paths = [{ value: `${projekte.name}/Pegel` }, { value: `/${atRoot.name}` }, { value: 'Nirgends/Nichts' }];
    await q(`UPDATE switchboard_content SET items = $2::jsonb WHERE hash = $1`, [content_hash, JSON.stringify(paths)]);
    await q(
      `UPDATE switchboard_node SET ports = (SELECT jsonb_agg(CASE WHEN p->>'name' = 'depot' THEN jsonb_set(p, '{default_value,value}', to_jsonb($2::text)) ELSE p END)
                                              FROM jsonb_array_elements(ports) p) WHERE id = $1`,
      [node.id, `${projekte.name}/Pegel`],
    );
    await q(`UPDATE magazine_datum_version SET data = jsonb_build_object('value', $2::text) WHERE datum_id = $1`, [
      datum.index,
      atRoot.name,
    ]);

    await migrate();

    assert.deepEqual(await contentOf(c, frame), [
      { value: pegel.resource_uri },
      { value: atRoot.resource_uri },
      { value: 'Nirgends/Nichts' },
    ]);
    assert.match(
      (await get(c, frame.resource_uri)).text_repr,
      new RegExp(`^${pegel.resource_uri}, ${atRoot.resource_uri}, Nirgends/Nichts$`),
    );
    const ports = (await get(c, node.resource_uri)).ports as Array<{ name: string; default_value: unknown }>;
    assert.deepEqual(ports.find((p) => p.name === 'depot')!.default_value, { value: pegel.resource_uri });
    const [stored] = expectStatus<{ objects: Array<{ value: string }> }>(
      await c.get(`/api/v1/datum/by-depot/${depots.id}/`),
      200,
    ).objects;
    assert.equal(stored.value, atRoot.resource_uri);
  });
});
