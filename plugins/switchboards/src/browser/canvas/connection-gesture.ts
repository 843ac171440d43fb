/** A socket as Rete names it: the item's address, the socket key and its side. */
export interface SocketRef {
  uri: string;
  key: string;
  side: 'input' | 'output';
}

/** What a gesture ends in; the canvas screen turns these into server calls. */
export interface GestureHandlers {
  /**
   * The user drew a connection (either direction). `replacing` are links Rete took off their
   * sockets during the gesture: still on the server, to be removed only once the new link exists.
   */
  onConnect(from: { uri: string; key: string }, to: { uri: string; key: string }, replacing: string[]): void;
  /** The user pulled a link off its socket and dropped it nowhere. */
  onDisconnect(linkUri: string): void;
  /** The user drew from a socket and let go over empty canvas (no link was picked up). */
  onDropLink(from: SocketRef): void;
}

/**
 * One connection gesture on the canvas, from picking a socket to letting go. Rete removes
 * connections while the pointer still moves (a link picked off its input; the link of an input
 * taken by the new one); none of that reaches the server until the gesture ends, so a refused
 * connection leaves every link as it was (issue 14 item 10).
 *
 * Rete reports the end (`connectiondrop`) and the connection it wants (`connectioncreate`) on
 * different pipes, in no fixed order: a drop that `created` a connection leaves the taken-off links
 * to `created`, which may come before or after it.
 */
export class ConnectionGesture {
  private takenOff: string[] = [];

  constructor(private readonly handlers: GestureHandlers) {}

  /** Rete took a connection off (not while the canvas redraws itself). */
  removed(linkUri: string): void {
    if (!this.takenOff.includes(linkUri)) this.takenOff.push(linkUri);
  }

  /** Rete wants a connection between two sockets. */
  created(from: { uri: string; key: string }, to: { uri: string; key: string }): void {
    const replacing = this.takenOff;
    this.takenOff = [];
    this.handlers.onConnect(from, to, replacing);
  }

  /** The gesture ended: `created` when it ended in a connection (see `created`), `socket` where it ended. */
  dropped(initial: SocketRef | undefined, socket: SocketRef | null, created: boolean): void {
    if (created) return;
    const pickedOff = this.takenOff;
    this.takenOff = [];
    if (pickedOff.length) for (const uri of pickedOff) this.handlers.onDisconnect(uri);
    else if (initial && !socket) this.handlers.onDropLink(initial);
  }
}
