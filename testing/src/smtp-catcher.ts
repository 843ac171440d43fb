import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

/**
 * A real SMTP server on a free loopback port that keeps every mail it accepts (parsed with
 * mailparser), for the invitation and password-reset suites. Recipients in `refuse` are rejected
 * with 550, as a mail server refuses an unknown mailbox.
 */
export class SmtpCatcher {
  readonly mails: ParsedMail[] = [];
  readonly refuse = new Set<string>();
  port = 0;
  private waiters: Array<() => void> = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo: (address, _session, cb) =>
      this.refuse.has(address.address.toLowerCase())
        ? cb(Object.assign(new Error('5.1.1 mailbox unavailable'), { responseCode: 550 }))
        : cb(),
    onData: (stream, _session, cb) => {
      simpleParser(stream).then(
        (mail) => {
          this.mails.push(mail);
          for (const w of this.waiters.splice(0)) w();
          cb();
        },
        (e: Error) => cb(e),
      );
    },
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  /** The first mail to `to` received after `since` mails (waits for it; mocha's timeout ends a wait in vain). */
  async mailTo(to: string, since = 0): Promise<ParsedMail> {
    for (;;) {
      const found = this.mails.slice(since).find((m) => addressesOf(m).includes(to.toLowerCase()));
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export function addressesOf(mail: ParsedMail): string[] {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
}

/** The set-password link of an account mail and its token (after '#'). */
export function linkOf(mail: ParsedMail): { url: string; token: string } {
  const m = /(https?:\/\/\S+\/accounts\/set-password\/#([A-Za-z0-9_-]+))/.exec(mail.text ?? '');
  if (!m) throw new Error(`no set-password link in the mail:\n${mail.text}`);
  return { url: m[1], token: m[2] };
}
