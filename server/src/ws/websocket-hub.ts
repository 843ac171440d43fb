import type { Server as HttpServer, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { Disposable, DisposableCollection } from '@werkbank/kernel';
import type { AccountService } from '../auth/account-service';
import type { AuthUser } from '@werkbank/sdk/node';
import { SESSION_COOKIE } from '../auth/auth-middleware';

export interface WebSocketChannel {
  /** Path, e.g. '/ws/events'. */
  path: string;
  /** Called for each accepted connection of a signed-in user; returns what to dispose on close. */
  onConnect(socket: WebSocket, user: AuthUser, url: URL): Disposable;
}

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) {
      try {
        return decodeURIComponent(v.join('='));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * Websocket upgrades for every channel. An upgrade is refused unless its Origin is the server's
 * own host (or configured), and the session cookie belongs to a signed-in user.
 */
export class WebSocketHub implements Disposable {
  /** Clients send at most small control messages (presence); larger frames close the socket (1009). */
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly channels = new Map<string, WebSocketChannel>();
  private readonly toDispose = new DisposableCollection();
  /** The session key each open socket was opened with. */
  private readonly sessions = new Map<WebSocket, string>();

  constructor(
    private readonly accounts: AccountService,
    private readonly allowedOrigins: string[],
    private readonly log: (m: string) => void,
  ) {}

  addChannel(channel: WebSocketChannel): Disposable {
    this.channels.set(channel.path, channel);
    return Disposable.create(() => this.channels.delete(channel.path));
  }

  attach(server: HttpServer): void {
    const timer = setInterval(
      () => void this.sweep().catch((e: Error) => this.log(`Websocket sweep failed: ${e.message}`)),
      30_000,
    );
    timer.unref();
    this.toDispose.push(Disposable.create(() => clearInterval(timer)));
    const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(req, socket, head).catch((e: Error) => {
        this.log(`Websocket upgrade failed: ${e.message}`);
        socket.destroy();
      });
    server.on('upgrade', onUpgrade);
    this.toDispose.push(Disposable.create(() => server.off('upgrade', onUpgrade)));
  }

  originAllowed(origin: string | undefined, host: string | undefined): boolean {
    if (!origin) return false;
    try {
      const o = new URL(origin);
      return o.host === host || this.allowedOrigins.includes(o.origin);
    } catch {
      return false;
    }
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      socket.destroy();
      return;
    }
    const channel = this.channels.get(url.pathname);
    const refuse = (code: number, text: string) => {
      socket.write(`HTTP/1.1 ${code} ${text}\r\nConnection: close\r\n\r\n`);
      socket.destroy();
    };
    if (!channel) return refuse(404, 'Not Found');
    if (!this.originAllowed(req.headers.origin, req.headers.host)) {
      this.log(`Refused websocket from origin ${req.headers.origin ?? '(none)'}`);
      return refuse(403, 'Forbidden');
    }
    const key = cookie(req.headers.cookie, SESSION_COOKIE);
    const user = key ? (await this.accounts.userFromSession(key))?.user : undefined;
    if (!user) return refuse(401, 'Unauthorized');
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.sessions.set(ws, key!);
      const d = channel.onConnect(ws, user, url);
      ws.on('close', () => {
        this.sessions.delete(ws);
        d.dispose();
      });
    });
  }

  /**
   * Closes (code 4401) every socket whose session has ended — logout, a closed or expired session,
   * a deactivated user. Runs every 30 s; tests call it directly.
   */
  async sweep(): Promise<number> {
    let closed = 0;
    for (const [ws, key] of [...this.sessions]) {
      if (!(await this.accounts.userFromSession(key))) {
        ws.close(4401, 'session ended');
        this.sessions.delete(ws);
        closed++;
      }
    }
    return closed;
  }

  dispose(): void {
    for (const c of this.wss.clients) c.terminate();
    this.wss.close();
    this.toDispose.dispose();
  }
}
