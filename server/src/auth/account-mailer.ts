import nodemailer, { type Transporter } from 'nodemailer';
import { ApiError, type ServerConfig } from '@werkbank/sdk/node';

export interface AccountMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends account mail (invitations, password resets; decision 0041) through the SMTP server of the
 * configuration with nodemailer. Ready only when SMTP_HOST, MAIL_FROM and PUBLIC_URL are set; the
 * configuration is read at each call, so a test server may learn its own address after it listens.
 */
export class AccountMailer {
  private transport?: Transporter;

  constructor(private readonly config: ServerConfig) {}

  /** True when mail can be sent (the workbench then offers invitations and password resets). */
  get ready(): boolean {
    return !!(this.config.smtp && this.config.mailFrom && this.config.publicUrl);
  }

  /** Throws 503 `mail_not_configured` (naming the settings to make) unless mail can be sent. */
  assertReady(): void {
    if (!this.ready) throw new ApiError(503, 'mail_not_configured', 'errors.mail_not_configured');
  }

  /** `PUBLIC_URL` + `path`. */
  link(path: string): string {
    return this.config.publicUrl + path;
  }

  /**
   * Sends one plain-text mail. Throws 502 `mail_failed` with the SMTP server's answer (at most 200
   * characters, e.g. "550 mailbox unavailable") when it refuses or cannot be reached.
   */
  async send(mail: AccountMail): Promise<void> {
    this.assertReady();
    try {
      await this.transporter().sendMail({ from: this.config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text });
    } catch (e) {
      const err = e as { response?: string; code?: string; message?: string };
      const detail = (err.response ?? err.code ?? err.message ?? '').replace(/\s+/g, ' ').slice(0, 200);
      throw new ApiError(502, 'mail_failed', 'errors.mail_failed', { detail });
    }
  }

  close(): void {
    this.transport?.close();
    this.transport = undefined;
  }

  private transporter(): Transporter {
    if (this.transport) return this.transport;
    const smtp = this.config.smtp!;
    this.transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.tls === 'implicit',
      requireTLS: smtp.tls === 'starttls',
      ignoreTLS: smtp.tls === 'none',
      auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return this.transport;
  }
}
