import { useEffect, useRef, useState } from '@werkbank/sdk/react';

/** Reconnect delays: doubling from 1 s up to 30 s after an unclean close; none after a clean one. */
export const RECONNECT_INITIAL_MS = 1000;
export const RECONNECT_MAX_MS = 30000;

/**
 * Listens on /ws/events and calls `onEvents` when new entries were committed. Returns whether the
 * connection is open.
 */
export function useLiveEvents(onEvents: () => void): boolean {
  const [open, setOpen] = useState(false);
  const callback = useRef(onEvents);
  callback.current = onEvents;
  useEffect(() => {
    let socket: WebSocket | undefined;
    let delay = RECONNECT_INITIAL_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const connect = () => {
      const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/events`;
      socket = new WebSocket(url);
      socket.onopen = () => {
        delay = RECONNECT_INITIAL_MS;
        setOpen(true);
      };
      socket.onmessage = () => callback.current();
      socket.onclose = (e) => {
        setOpen(false);
        if (stopped || e.wasClean) return;
        timer = setTimeout(connect, delay);
        delay = Math.min(delay * 2, RECONNECT_MAX_MS);
      };
    };
    connect();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      socket?.close(1000);
    };
  }, []);
  return open;
}
