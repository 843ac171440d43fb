import assert from 'node:assert/strict';
import {
  emailProblem,
  expirationOf,
  permissionBox,
  sessionLimitOf,
  userBodyOf,
  userDraftOf,
  usernameProblem,
} from './user-rules';

const KNOWN = ['access_connect', 'publish_view', 'read_depot', 'write_depot'];

describe('user editor rules (spec 002 §4–§5)', () => {
  it('starts a new user active, not staff, with every permission but publish_view and access_connect', () => {
    const d = userDraftOf(undefined, KNOWN);
    assert.equal(d.is_active, true);
    assert.equal(d.is_staff, false);
    assert.equal(d.is_superuser, false);
    assert.deepEqual(d.user_permissions, ['read_depot', 'write_depot']);
  });

  it('keeps an existing user’s own permissions as they are', () => {
    assert.deepEqual(userDraftOf({ username: 'a', user_permissions: ['publish_view'] }, KNOWN).user_permissions, [
      'publish_view',
    ]);
  });

  it('sends a session limit below 1 and an empty expiration date as null', () => {
    assert.equal(sessionLimitOf('0'), null);
    assert.equal(sessionLimitOf('-3'), null);
    assert.equal(sessionLimitOf(''), null);
    assert.equal(sessionLimitOf('2'), 2);
    assert.equal(expirationOf(''), null);
    assert.equal(expirationOf('2030-05-01'), '2030-05-01T23:59:59.000Z');
    const body = userBodyOf({ ...userDraftOf(undefined, KNOWN), username: 'x', max_concurrent_sessions: '0' });
    assert.equal(body.max_concurrent_sessions, null);
    assert.equal(body.expiration_date, null);
  });

  it('sends a password only when one was typed', () => {
    const d = userDraftOf({ username: 'x' }, KNOWN);
    assert.equal('raw_password' in userBodyOf(d), false);
    assert.equal(userBodyOf({ ...d, password: 'secret-words' }).raw_password, 'secret-words');
  });

  it('accepts letters, digits and . _ - in usernames, nothing else', () => {
    assert.equal(usernameProblem('eva.k_2-x'), undefined);
    assert.equal(usernameProblem(''), 'username_required');
    assert.equal(usernameProblem('has space'), 'username_invalid');
    assert.equal(usernameProblem('eva@home'), 'username_invalid');
    assert.equal(usernameProblem('jürgen'), 'username_invalid');
  });

  it('shows every permission of a superuser checked and locked', () => {
    const box = permissionBox('publish_view', { is_staff: true, is_superuser: true, user_permissions: [] }, new Set());
    assert.deepEqual(box, { checked: true, disabled: true, fromGroup: false });
  });

  it('shows group-granted permissions checked', () => {
    const user = { is_staff: false, is_superuser: false, user_permissions: [] };
    assert.equal(permissionBox('read_depot', user, new Set(['read_depot'])).checked, true);
    assert.equal(permissionBox('write_depot', user, new Set(['read_depot'])).checked, false);
  });

  it('disables a staff user’s boxes except those granted by group membership', () => {
    const staff = { is_staff: true, is_superuser: false, user_permissions: ['write_depot'] };
    const groups = new Set(['read_depot']);
    assert.equal(permissionBox('read_depot', staff, groups).disabled, false);
    assert.equal(permissionBox('write_depot', staff, groups).disabled, true);
    assert.equal(permissionBox('write_depot', staff, groups).checked, true);
    assert.equal(permissionBox('publish_view', { ...staff, is_staff: false }, groups).disabled, false);
  });
});

describe('user editor: Send invitation (spec 002 §4–§5)', () => {
  const invited = { ...userDraftOf(undefined, KNOWN, 'de'), username: 'eva', password: 'typed-before', send_invite: true };

  it('sends an invited user inactive and without a password', () => {
    const body = userBodyOf(invited);
    assert.equal(body.is_active, false);
    assert.equal('raw_password' in body, false);
    assert.equal('send_invite' in body, false, 'the invitation is its own call');
    assert.equal(invited.invite_language, 'de', 'the inviter’s language by default');
  });

  it('checks the email only when an invitation is to be sent', () => {
    assert.equal(emailProblem({ email: 'no address', send_invite: false }), undefined);
    assert.equal(emailProblem({ email: 'no address', send_invite: true }), 'email_invalid');
    assert.equal(emailProblem({ email: 'eva@example.org', send_invite: true }), undefined);
  });
});
