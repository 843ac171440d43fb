/** The first reconnect delay after an unclean close (ms); it doubles up to RECONNECT_MAX_MS. */
export const RECONNECT_FIRST_MS = 500;
export const RECONNECT_MAX_MS = 16_000;

/** Close codes after which reconnecting cannot help (normal close, going away on purpose, no access). */
const FINAL_CODES = new Set([1000, 4401, 4404, 4429]);

export interface LiveMessage {
  type: string;
  resource_uri?: string;
  fields?: Record<string, unknown>;
  [key: string]: unknown;
}

/** How a LiveConnection opens sockets (a browser WebSocket by default; tests pass their own). */
export type SocketFactory = (url: string) => WebSocket;

/**
 * One live connection of the canvas (spec 000 §4 "Live updates"): after an unclean close it
 * reconnects with a doubling delay up to a maximum; after a clean close it stops. `onState` tells
 * whether the connection is up (the canvas shows the interrupted message while it is not) — also
 * when the very first connection fails, e.g. behind a proxy that refuses websockets — and `onOpen`
 * fires on every (re)connect, so the canvas can reload what it may have missed.
 */
export class LiveConnection {
  private socket?: WebSocket;
  private delay = RECONNECT_FIRST_MS;
  private timer?: ReturnType<typeof setTimeout>;
  private stopped = false;
  /** Unknown until the first connection succeeds or fails: both are reported (a socket that never opens too). */
  connected: boolean | undefined = undefined;

  constructor(
    private readonly url: string,
    private readonly handlers: {
      onMessage(m: LiveMessage): void;
      onState(connected: boolean): void;
      onOpen?(): void;
    },
    private readonly factory: SocketFactory = (u) => new WebSocket(u),
    private readonly schedule: (run: () => void, ms: number) => ReturnType<typeof setTimeout> = (run, ms) => setTimeout(run, ms),
  ) {
    this.open();
  }

  private open(): void {
    const ws = this.factory(this.url);
    this.socket = ws;
    ws.onmessage = (e: MessageEvent) => {
      let m: LiveMessage;
      try {
        m = JSON.parse(String(e.data)) as LiveMessage;
      } catch {
        return;
      }
      if (m.type === 'SUBSCRIBED') {
        this.delay = RECONNECT_FIRST_MS;
        this.setConnected(true);
        this.handlers.onOpen?.();
        return;
      }
      this.handlers.onMessage(m);
    };
    ws.onclose = (e: CloseEvent) => {
      if (this.socket !== ws) return;
      this.socket = undefined;
      this.setConnected(false);
      if (this.stopped || (e.wasClean && FINAL_CODES.has(e.code))) {
        this.stopped = true;
        return;
      }
      const wait = this.delay;
      this.delay = Math.min(this.delay * 2, RECONNECT_MAX_MS);
      this.timer = this.schedule(() => this.open(), wait);
    };
  }

  private setConnected(up: boolean): void {
    if (this.connected === up) return;
    this.connected = up;
    this.handlers.onState(up);
  }

  /** The current reconnect delay (ms): what the next unclean close waits. */
  get nextDelay(): number {
    return this.delay;
  }

  /** Whether the connection gave up for good (a clean close, or disposed). */
  get isStopped(): boolean {
    return this.stopped;
  }

  send(message: unknown): void {
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  dispose(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    const ws = this.socket;
    this.socket = undefined;
    ws?.close(1000);
  }
}

/** The websocket address of a live channel for a switchboard, on this page's host. */
export function liveUrl(channel: string, switchboardId: number): string {
  const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${window.location.host}${channel}?switchboard_id=${switchboardId}`;
}
