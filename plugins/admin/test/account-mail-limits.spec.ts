import assert from 'node:assert/strict';
import { addressesOf, assertError, expectStatus } from '@werkbank/testing/node';
import { INVITE, mailSuite, RESET } from './mail-suite';

/**
 * The limits on account mail (issue 19, spec 000 §7–§8, decision 0041): invitations per superuser,
 * mails per address and reset requests per client address, through a real SMTP server.
 */
describe('admin: the limits on invitations and password resets', function () {
  const suite = mailSuite();
  const { newUser, visitorFrom, userWithEmail } = suite;

  it('lets one superuser send 50 invitations an hour', async () => {
    const boss = await suite.t.user({ is_superuser: true });
    const first = await newUser('inv.many1', 'many1@example.org');
    await suite.t.server.db.dataSource.query(
      `INSERT INTO werkbank_account_token (token_hash, user_id, purpose, created_by, expires)
       SELECT md5('earlier-' || g) || md5('invite-' || g), $1, 'invite', $2, now() + interval '1 day' FROM generate_series(1, 49) g`,
      [first.id, boss.id],
    );
    expectStatus(await boss.client.post(INVITE, { email: 'many1@example.org', user: first.resource_uri }), 200);
    const second = await newUser('inv.many2', 'many2@example.org');
    assertError(
      await boss.client.post(INVITE, { email: 'many2@example.org', user: second.resource_uri }),
      429,
      'too_many_invitations',
      'You have sent 50 invitations within the last hour. Please wait a while.',
    );
    expectStatus(await suite.admin.post(INVITE, { email: 'many2@example.org', user: second.resource_uri }), 200);
  });

  it('mails one address at most three times an hour, and keeps requests no longer than a day', async () => {
    await userWithEmail('reset.kai', 'kai@example.org');
    await userWithEmail('reset.lea', 'lea@example.org');
    const visitor = visitorFrom('198.51.100.12');
    const since = suite.smtp.mails.length;
    for (let i = 0; i < 4; i++) expectStatus(await visitor.post(RESET, { email: 'kai@example.org' }), 200);
    // A mail asked for later arrives after any fourth one would have.
    expectStatus(await visitor.post(RESET, { email: 'lea@example.org' }), 200);
    await suite.smtp.mailTo('lea@example.org', since);
    const toKai = suite.smtp.mails.slice(since).filter((m) => addressesOf(m).includes('kai@example.org'));
    assert.equal(toKai.length, 3);

    const db = suite.t.server.db.dataSource;
    await db.query(
      `INSERT INTO werkbank_mail_request (address, ip_address, created) VALUES ('old@example.org', '198.51.100.13', now() - interval '2 days')`,
    );
    expectStatus(await visitorFrom('198.51.100.13').post(RESET, { email: 'new@example.org' }), 200);
    const [{ n }] = (await db.query(
      `SELECT count(*)::int AS n FROM werkbank_mail_request WHERE address = 'old@example.org'`,
    )) as {
      n: number;
    }[];
    assert.equal(n, 0);
  });

  it('allows 20 reset requests an hour per client address, without limiting other addresses', async () => {
    const busy = visitorFrom('198.51.100.20');
    for (let i = 0; i < 20; i++) expectStatus(await busy.post(RESET, { email: `busy${i}@example.org` }), 200);
    assertError(
      await busy.post(RESET, { email: 'busy20@example.org' }),
      429,
      'too_many_attempts',
      'Too many password-reset requests from your address. Try again in 60 minutes.',
    );
    expectStatus(await visitorFrom('198.51.100.21').post(RESET, { email: 'calm@example.org' }), 200);
    // A proxy may report a longer address than the table keeps; the request is answered all the same.
    expectStatus(await visitorFrom(`2001:db8:${'a:'.repeat(40)}1`).post(RESET, { email: 'calm@example.org' }), 200);
  });

  it('limits reset requests per client address', async () => {
    const visitor = suite.t.client();
    let last;
    for (let i = 0; i < 25; i++) {
      last = await visitor.post(RESET, { email: `many${i}@example.org` });
      if (last.status !== 200) break;
    }
    assertError(last!, 429, 'too_many_attempts');
  });
});
