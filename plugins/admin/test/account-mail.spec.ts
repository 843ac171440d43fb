import assert from 'node:assert/strict';
import {
  assertError,
  expectStatus,
  linkOf,
  SmtpCatcher,
  startTestServer,
  userUri,
  type Client,
  type TestServer,
} from '@werkbank/testing/node';
import { INVITE, LINK, mailSuite, RESET, SET } from './mail-suite';

/**
 * Invitations and password resets by e-mail (issue 19, spec 000 §7–§8, spec 002 §4–§5, decision
 * 0041), through a real SMTP server: the link in the received mail is the one the user follows.
 */
describe('admin: invitations and password resets through a real SMTP server', function () {
  const suite = mailSuite();
  let smtp: SmtpCatcher;
  let t: TestServer;
  let admin: Client;
  before(() => ({ smtp, t, admin } = suite));
  const { newUser, visitorFrom, userWithEmail } = suite;

  it('invites a new user in the chosen language; the mail’s one-time link sets the password and activates the account', async () => {
    const eva = await newUser('inv.eva', 'eva@example.org');
    assert.equal(expectStatus(await admin.get('/api/v2/backend/config'), 200).account_mail, true);
    const since = smtp.mails.length;
    const sent = expectStatus(
      await admin.post(INVITE, { email: 'eva@example.org', user: eva.resource_uri, language: 'de' }),
      200,
    );
    assert.equal(sent.message, 'Invitation sent', 'the reply speaks the inviter’s language');
    const days = (Date.parse(sent.expires) - Date.now()) / 86400_000;
    assert.ok(days > 6.9 && days <= 7, `valid for 7 days by default, not ${days}`);

    const mail = await smtp.mailTo('eva@example.org', since);
    assert.equal(mail.subject, 'Ihre Einladung zur Werkbank', 'the mail is in the language the inviter chose');
    assert.equal(mail.from?.value[0].address, 'werkbank@example.org');
    assert.match(mail.text ?? '', /Ihr Benutzername ist: inv\.eva/);
    assert.match(mail.text ?? '', /Admin hat Sie zur Werkbank eingeladen/);
    const { url, token } = linkOf(mail);
    assert.ok(url.startsWith(`${t.url}/accounts/set-password/#`), url);

    const visitor = t.client();
    assertError(
      await visitor.post('/accounts/login/', { username: 'inv.eva', password: 'ein-langes-passwort' }),
      400,
      'invalid_login',
    );
    const link = expectStatus(await visitor.post(LINK, { token }), 200);
    assert.deepEqual([link.purpose, link.username], ['invite', 'inv.eva']);
    assertError(
      await visitor.post(SET, { token, new_password1: 'ein-langes-passwort', new_password2: 'ein-anderes-passwort' }),
      400,
      'password_mismatch',
    );
    assertError(await visitor.post(SET, { token, new_password1: 'kurz', new_password2: 'kurz' }), 400, 'password_too_short');
    const done = expectStatus(
      await visitor.post(SET, { token, new_password1: 'ein-langes-passwort', new_password2: 'ein-langes-passwort' }),
      200,
    );
    assert.equal(done.purpose, 'invite');
    await visitor.login('inv.eva', 'ein-langes-passwort');
    assert.equal(expectStatus(await admin.get(eva.resource_uri), 200).is_active, true, 'the account is active now');

    // Audited: sent by the superuser, accepted by the user.
    const feed = expectStatus(await admin.get(`/api/v1/event/?limit=50`), 200).objects as Array<{
      metadata: Record<string, unknown>;
    }>;
    assert.ok(feed.some((e) => e.metadata?.invitation === 'sent'));
    assert.ok(feed.some((e) => e.metadata?.invitation === 'accepted'));
  });

  it('refuses a link used a second time, and one that expired', async () => {
    const ben = await newUser('inv.ben', 'ben@example.org');
    let since = smtp.mails.length;
    expectStatus(await admin.post(INVITE, { email: 'ben@example.org', user: ben.resource_uri }), 200);
    const first = linkOf(await smtp.mailTo('ben@example.org', since));
    const visitor = t.client();
    const body = { token: first.token, new_password1: 'bens-passwort-1', new_password2: 'bens-passwort-1' };
    expectStatus(await visitor.post(SET, body), 200);
    assertError(
      await visitor.post(SET, { ...body, new_password1: 'x-passwort-2', new_password2: 'x-passwort-2' }),
      400,
      'link_used',
    );
    const used = await visitor.post(LINK, { token: first.token });
    assertError(used, 400, 'link_used');
    assert.equal(used.body.field, 'token', 'the refusal names the link’s field');
    await visitor.login('inv.ben', 'bens-passwort-1');

    const cleo = await newUser('inv.cleo', 'cleo@example.org');
    since = smtp.mails.length;
    expectStatus(await admin.post(INVITE, { email: 'cleo@example.org' }), 200);
    const expired = linkOf(await smtp.mailTo('cleo@example.org', since));
    await t.server.db.dataSource.query(
      `UPDATE werkbank_account_token SET expires = now() - interval '1 minute' WHERE user_id = $1`,
      [cleo.id],
    );
    const late = await visitor.post(SET, {
      token: expired.token,
      new_password1: 'cleos-passwort',
      new_password2: 'cleos-passwort',
    });
    assertError(late, 400, 'link_expired', /expired/);
    assert.equal(late.body.field, 'token');
    assertError(await visitor.post(LINK, { token: 'not-a-token' }), 400, 'link_invalid');
    assert.equal(expectStatus(await admin.get(cleo.resource_uri), 200).is_active, false, 'nothing changed');
  });

  it('requires a valid address, a new user and a superuser, with the spec’s message', async () => {
    const dora = await newUser('inv.dora', 'dora@example.org');
    assertError(
      await admin.post(INVITE, { email: 'dora at example', user: dora.resource_uri }),
      400,
      'invalid_email',
      'A valid email address is required',
    );
    const de = await t.user();
    expectStatus(await admin.patch(userUri(de.id), { is_superuser: true, language: 'de' }), 200);
    assertError(
      await de.client.post(INVITE, { email: '' }),
      400,
      'invalid_email',
      'Eine gültige E-Mail-Adresse ist erforderlich',
    );
    const known = await t.user();
    expectStatus(await admin.patch(userUri(known.id), { email: 'known@example.org' }), 200);
    assertError(await admin.post(INVITE, { email: 'known@example.org', user: userUri(known.id) }), 400, 'invite_not_new');
    assertError(await admin.post(INVITE, { email: 'other@example.org', user: dora.resource_uri }), 400, 'invite_email_mismatch');
    assertError(await admin.post(INVITE, { email: 'nobody@example.org' }), 400, 'invite_no_user');
    const plain = await t.user();
    assertError(await plain.client.post(INVITE, { email: 'dora@example.org' }), 403, 'superuser_required');
    assertError(await admin.post(INVITE, { email: 'dora@example.org' }, { csrf: false }), 403, 'csrf_missing');
  });

  it('passes the mail server’s refusal on and leaves no usable link behind', async () => {
    smtp.refuse.add('bounce@example.org');
    const emil = await newUser('inv.emil', 'bounce@example.org');
    const res = await admin.post(INVITE, { email: 'bounce@example.org', user: emil.resource_uri });
    assertError(res, 502, 'mail_failed', /could not be sent .*550/);
    const open = (await t.server.db.dataSource.query(
      `SELECT count(*)::int AS n FROM werkbank_account_token WHERE user_id = $1 AND used_at IS NULL`,
      [emil.id],
    )) as { n: number }[];
    assert.equal(open[0].n, 0);
  });

  it('mails a reset link only to a known active address, answering every request alike; the reset ends other sessions', async () => {
    const fritz = await t.user({ username: 'reset.fritz' });
    expectStatus(await admin.patch(userUri(fritz.id), { email: 'Fritz@Example.org', language: 'en' }), 200);
    const off = await t.user({ username: 'reset.off' });
    expectStatus(await admin.patch(userUri(off.id), { email: 'off@example.org', is_active: false }), 200);
    const visitor = t.client();
    const since = smtp.mails.length;
    const unknown = expectStatus(await visitor.post(RESET, { email: 'nobody@example.org' }), 200);
    const inactive = expectStatus(await visitor.post(RESET, { email: 'off@example.org' }), 200);
    const known = expectStatus(await visitor.post(RESET, { email: 'fritz@example.org', language: 'de' }), 200);
    assert.deepEqual(unknown, known, 'the reply does not tell whether the address is known');
    assert.deepEqual(inactive, known);
    assert.match(known.message, /If an account with this email address exists/);

    const mail = await smtp.mailTo('fritz@example.org', since);
    assert.equal(mail.subject, 'Set a new Werkbank password', 'in the user’s own language');
    assert.equal(smtp.mails.length - since, 1, 'no mail for unknown or inactive addresses');
    const { token } = linkOf(mail);
    assert.equal(expectStatus(await visitor.post(LINK, { token }), 200).purpose, 'reset');
    expectStatus(await fritz.client.get('/api/v1/user/'), 200);
    expectStatus(await visitor.post(SET, { token, new_password1: 'fritz-neu-123', new_password2: 'fritz-neu-123' }), 200);
    assertError(await fritz.client.get('/api/v1/user/'), 401, 'not_authenticated');
    assertError(
      await t.client().post('/accounts/login/', { username: 'reset.fritz', password: fritz.password }),
      400,
      'invalid_login',
    );
    await t.client().login('reset.fritz', 'fritz-neu-123');
    assertError(
      await visitor.post(SET, { token, new_password1: 'fritz-neu-456', new_password2: 'fritz-neu-456' }),
      400,
      'link_used',
    );
    assertError(await visitor.post(RESET, { email: 'fritz' }), 400, 'invalid_email');
    assertError(await t.client().post(RESET, { email: 'fritz@example.org' }, { csrf: false }), 403, 'csrf_missing');
  });

  /** Resolves once the activity feed has recorded a change of a user (the audit of a mail sent after the reply). */
  const nextUserEvent = () =>
    new Promise<void>((resolve) => {
      const sub = t.server.events.onDidRecordEvent(({ kind }) => {
        if (kind !== 'user') return;
        sub.dispose();
        resolve();
      });
    });
  type FeedEntry = {
    key: string;
    user: string | null;
    content_kind: string;
    content_object: string;
    metadata: Record<string, unknown>;
  };
  const feedOf = async (uri: string) =>
    (expectStatus(await admin.get(`/api/v1/event/?limit=100`), 200).objects as FeedEntry[]).filter(
      (e) => e.content_object === uri,
    );

  it('invites in the inviter’s language when none is chosen, says until when in it, and records who invited whom', async () => {
    const adminUri = expectStatus(await admin.get('/api/v2/backend/config'), 200).auth.user as string;
    const ada = await newUser('inv.ada', 'ada@example.org');
    let since = smtp.mails.length;
    const recorded = nextUserEvent();
    const sent = expectStatus(await admin.post(INVITE, { email: '  ada@example.org ', user: ada.resource_uri }), 200);
    assert.deepEqual([sent.status, sent.user], ['ok', ada.resource_uri]);
    await recorded;
    const en = await smtp.mailTo('ada@example.org', since);
    assert.equal(en.subject, 'Your invitation to Werkbank');
    assert.match(en.text ?? '', /valid until \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2} CES?T\./);
    const [entry] = (await feedOf(ada.resource_uri)).filter((e) => e.metadata.invitation === 'sent');
    assert.deepEqual([entry.key, entry.content_kind, entry.user], ['update', 'user', adminUri]);

    const de = await t.user();
    expectStatus(await admin.patch(userUri(de.id), { is_superuser: true, language: 'de' }), 200);
    const bea = await newUser('inv.bea', 'bea@example.org');
    since = smtp.mails.length;
    expectStatus(await de.client.post(INVITE, { email: 'bea@example.org', user: bea.resource_uri }), 200);
    const mail = await smtp.mailTo('bea@example.org', since);
    assert.equal(mail.subject, 'Ihre Einladung zur Werkbank');
    assert.match(mail.text ?? '', /gültig bis \d{1,2}\. [A-ZÄÖÜ][a-zäöü]+ \d{4} um \d{2}:\d{2} MES?Z\./);
  });

  it('invites only users who never had a password, names the field of each refusal, and asks which user when two are new', async () => {
    const withPassword = expectStatus(
      await admin.post('/api/v1/user/', {
        username: 'inv.pw',
        email: 'pw@example.org',
        raw_password: 'has-a-password',
        is_active: false,
      }),
      201,
    );
    const field = async (res: Promise<{ status: number; body: any; headers: Headers }>, code: string, name: string) => {
      const r = await res;
      assertError(r, 400, code);
      assert.equal(r.body.field, name, code);
    };
    await field(admin.post(INVITE, { email: 'pw@example.org', user: withPassword.resource_uri }), 'invite_not_new', 'email');
    await field(admin.post(INVITE, { email: 'pw@example.org', user: userUri(999999) }), 'invalid_user', 'user');
    await field(admin.post(INVITE, { email: 'pw at example' }), 'invalid_email', 'email');
    await field(
      admin.post(INVITE, { email: 'other@example.org', user: withPassword.resource_uri }),
      'invite_email_mismatch',
      'email',
    );
    await field(admin.post(INVITE, { email: 'nobody.new@example.org' }), 'invite_no_user', 'email');
    await newUser('inv.twin1', 'twin@example.org');
    const twin2 = await newUser('inv.twin2', 'twin@example.org');
    const ambiguous = await admin.post(INVITE, { email: 'twin@example.org' });
    assertError(ambiguous, 400, 'invite_ambiguous', 'Several new users have this email address. Name the user to invite.');
    assert.equal(ambiguous.body.field, 'email');
    expectStatus(await admin.post(INVITE, { email: 'twin@example.org', user: twin2.resource_uri }), 200);
    // An address saved with spaces around it is still the address typed into the invitation.
    const spaced = await newUser('inv.spaced', ' spaced@example.org ');
    expectStatus(await admin.post(INVITE, { email: 'spaced@example.org', user: spaced.resource_uri }), 200);
  });

  it('checks the new password of a link: the same twice, 8 to 1000 characters, an empty form too short', async () => {
    const tokenOf = async (username: string, email: string) => {
      const u = await newUser(username, email);
      const since = smtp.mails.length;
      expectStatus(await admin.post(INVITE, { email, user: u.resource_uri }), 200);
      return linkOf(await smtp.mailTo(email, since)).token;
    };
    const visitor = t.client();
    const ivy = await tokenOf('inv.ivy', 'ivy@example.org');
    const empty = await visitor.post(SET, { token: ivy });
    assertError(empty, 400, 'password_too_short', 'The new password must have at least 8 characters.');
    assert.equal(empty.body.field, 'new_password1');
    const differ = await visitor.post(SET, { token: ivy, new_password1: 'ivys-passwort', new_password2: 'ivys-Passwort' });
    assert.equal(differ.body.field, 'new_password2');
    const long = 'l'.repeat(1001);
    const tooLong = await visitor.post(SET, { token: ivy, new_password1: long, new_password2: long });
    assertError(tooLong, 400, 'password_too_long', 'The password is too long (at most 1000 characters).');
    assert.equal(tooLong.body.field, 'new_password1');
    const done = expectStatus(await visitor.post(SET, { token: ivy, new_password1: '8chars!!', new_password2: '8chars!!' }), 200);
    assert.deepEqual(done, {
      status: 'ok',
      purpose: 'invite',
      username: 'inv.ivy',
      message: 'Your password is set and your account is active. You can log in now.',
    });
    await t.client().login('inv.ivy', '8chars!!');

    const jan = await tokenOf('inv.jan', 'jan@example.org');
    const longest = 'j'.repeat(1000);
    expectStatus(await visitor.post(SET, { token: jan, new_password1: longest, new_password2: longest }), 200);
    await t.client().login('inv.jan', longest);
  });

  it('a new reset link ends the older one; following it keeps the follower’s own session and is recorded', async () => {
    const gus = await userWithEmail('reset.gus', 'gus@example.org');
    const visitor = visitorFrom('198.51.100.10');
    let since = smtp.mails.length;
    let recorded = nextUserEvent();
    const reply = expectStatus(await visitor.post(RESET, { email: '  gus@example.org ' }), 200);
    assert.equal(reply.status, 'ok');
    const older = linkOf(await smtp.mailTo('gus@example.org', since)).token;
    await recorded;
    const [requested] = (await feedOf(userUri(gus.id))).filter((e) => e.metadata.password_reset === 'requested');
    assert.deepEqual([requested?.key, requested?.content_kind, requested?.user], ['update', 'user', null]);

    since = smtp.mails.length;
    recorded = nextUserEvent();
    expectStatus(await visitor.post(RESET, { email: 'gus@example.org' }), 200);
    const token = linkOf(await smtp.mailTo('gus@example.org', since)).token;
    await recorded;
    const used = await visitor.post(LINK, { token: older });
    assertError(used, 400, 'link_used');
    assert.equal(used.body.field, 'token');
    const link = expectStatus(await visitor.post(LINK, { token }), 200);
    assert.deepEqual([link.status, link.purpose, link.username], ['ok', 'reset', 'reset.gus']);
    const hours = (Date.parse(link.expires) - Date.now()) / 3600_000;
    assert.ok(hours > 1.9 && hours <= 2, `a reset link is valid for 2 hours by default, not ${hours}`);

    // Gus follows the link in the browser he is signed in with.
    const done = expectStatus(
      await gus.client.post(SET, { token, new_password1: 'gus-neu-123', new_password2: 'gus-neu-123' }),
      200,
    );
    assert.deepEqual(done, {
      status: 'ok',
      purpose: 'reset',
      username: 'reset.gus',
      message: 'Your new password is set. Other sessions of your account were ended. You can log in now.',
    });
    expectStatus(await gus.client.get('/api/v1/user/'), 200);
    const [finished] = (await feedOf(userUri(gus.id))).filter((e) => e.metadata.password_reset === 'done');
    assert.equal(finished?.user, userUri(gus.id));
    assert.equal((await feedOf(userUri(gus.id))).filter((e) => e.metadata.invitation).length, 0);
  });

  it('a reset link followed after the account was deactivated sets the password but leaves the account inactive', async () => {
    const hal = await userWithEmail('reset.hal', 'hal@example.org');
    const since = smtp.mails.length;
    expectStatus(await visitorFrom('198.51.100.11').post(RESET, { email: 'hal@example.org' }), 200);
    const { token } = linkOf(await smtp.mailTo('hal@example.org', since));
    expectStatus(await admin.patch(userUri(hal.id), { is_active: false }), 200);
    expectStatus(await t.client().post(SET, { token, new_password1: 'hal-neu-123', new_password2: 'hal-neu-123' }), 200);
    assertError(
      await t.client().post('/accounts/login/', { username: 'reset.hal', password: 'hal-neu-123' }),
      403,
      'inactive_user',
    );
    assert.equal(expectStatus(await admin.get(userUri(hal.id)), 200).is_active, false);
  });
});

describe('admin: account mail without SMTP settings', function () {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.close());

  it('tells the workbench mail is off and answers invitations and resets with the reason', async () => {
    const admin = await t.admin();
    assert.equal(expectStatus(await admin.get('/api/v2/backend/config'), 200).account_mail, false);
    const u = expectStatus(
      await admin.post('/api/v1/user/', { username: 'no.mail', email: 'no@example.org', is_active: false }),
      201,
    );
    assertError(
      await admin.post(INVITE, { email: 'no@example.org', user: u.resource_uri }),
      503,
      'mail_not_configured',
      /SMTP_HOST/,
    );
    assertError(await t.client().post(RESET, { email: 'no@example.org' }), 503, 'mail_not_configured');
  });
});
