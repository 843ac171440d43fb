import { once, type EventEmitter } from 'node:events';
import type { MqttClient } from 'mqtt';
import type { MessageBus } from '@werkbank/sdk/node';
import { clientOptions, mqttClient } from './mqtt-feed';

type Payload = Record<string, unknown>;

/** An in-process MessageBus for tests that records what was published and lets a test wait for a message. */
export interface TestBus extends MessageBus {
  published: Array<{ channel: string; payload: Payload }>;
  /** Resolves with the next (or an already published, not yet taken) message on `channel` that `match` accepts. */
  next(channel: string, match?: (payload: Payload) => boolean): Promise<Payload>;
}

/** A fresh TestBus: handlers run synchronously on publish, as the in-process bus of an embedded server does. */
export function testBus(): TestBus {
  const handlers = new Map<string, Set<(p: Payload) => void>>();
  const taken = new Set<number>();
  const bus: TestBus = {
    published: [],
    async publish(channel, payload) {
      bus.published.push({ channel, payload });
      for (const h of handlers.get(channel) ?? []) h(payload);
    },
    subscribe(channel, handler) {
      const set = handlers.get(channel) ?? new Set();
      handlers.set(channel, set);
      set.add(handler);
      return { dispose: () => set.delete(handler) };
    },
    next(channel, match = () => true) {
      const i = bus.published.findIndex((m, j) => !taken.has(j) && m.channel === channel && match(m.payload));
      if (i >= 0) {
        taken.add(i);
        return Promise.resolve(bus.published[i].payload);
      }
      return new Promise((resolve) => {
        const sub = bus.subscribe(channel, (payload) => {
          if (!match(payload)) return;
          sub.dispose();
          taken.add(bus.published.length - 1);
          resolve(payload);
        });
      });
    },
  };
  return bus;
}

/** A client connected to the test broker at `uri` (e.g. the machine's Mosquitto), for publishing observations. */
export async function connectedPublisher(uri: string): Promise<MqttClient> {
  const client = mqttClient(clientOptions(uri, new URL(uri).hostname));
  await once(client as unknown as EventEmitter, 'connect');
  return client;
}
