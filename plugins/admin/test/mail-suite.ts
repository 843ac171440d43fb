import { expectStatus, SmtpCatcher, startTestServer, userUri, type Client, type TestServer } from '@werkbank/testing/node';

export const INVITE = '/accounts/send-invite/';
export const RESET = '/accounts/password-reset/';
export const SET = '/accounts/set-password/';
export const LINK = '/accounts/link/';

/** A suite's real SMTP server and the Werkbank that mails through it, with the helpers its tests share. */
export interface MailSuite {
  smtp: SmtpCatcher;
  t: TestServer;
  admin: Client;
  /** A new user as the editor saves one with 'Send invitation' ticked: inactive, no password. */
  newUser(username: string, email: string): Promise<{ id: number; resource_uri: string }>;
  /** A signed-out visitor whose requests reach the server through the proxy from `ip`. */
  visitorFrom(ip: string): Client;
  /** An existing user with an e-mail address, signed in. */
  userWithEmail(username: string, email: string): ReturnType<TestServer['user']>;
}

/**
 * The hooks of a suite about account mail (issue 19, decision 0041): an SMTP server that keeps what
 * it receives, and a Werkbank behind a proxy (so rate limits can be shown per client address,
 * X-Forwarded-For) whose links start with the address it listens on. Fields are set in `before`.
 */
export function mailSuite(): MailSuite {
  const s = {
    newUser: async (username: string, email: string) =>
      expectStatus(await s.admin.post('/api/v1/user/', { username, email, is_active: false }), 201) as {
        id: number;
        resource_uri: string;
      },
    visitorFrom: (ip: string) => {
      const c = s.t.client();
      c.headers = { 'x-forwarded-for': ip };
      return c;
    },
    userWithEmail: async (username: string, email: string) => {
      const u = await s.t.user({ username });
      expectStatus(await s.admin.patch(userUri(u.id), { email }), 200);
      return u;
    },
  } as MailSuite;
  before(async () => {
    s.smtp = await new SmtpCatcher().start();
    s.t = await startTestServer({
      config: {
        smtp: { host: '127.0.0.1', port: s.smtp.port, tls: 'none' },
        mailFrom: 'Werkbank <werkbank@example.org>',
        trustProxy: true,
      },
    });
    s.t.server.config.publicUrl = s.t.url;
    s.admin = await s.t.admin();
  });
  after(async () => {
    await s.t?.close();
    await s.smtp?.close();
  });
  return s;
}
