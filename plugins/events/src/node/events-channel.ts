import {
  Disposable,
  inject,
  injectable,
  ComponentGate,
  EventFeed,
  type RegistrySink,
  type WebSocketChannelContribution,
  type WebSocketChannelDescriptor,
} from '@werkbank/sdk/node';

/** /ws/events: tells every connected feed that new entries were committed ({"type":"events"}). */
@injectable()
export class EventsChannel implements WebSocketChannelContribution {
  @inject(ComponentGate) protected readonly gate!: ComponentGate;
  @inject(EventFeed) protected readonly feed!: EventFeed;

  registerWebSocketChannels(registry: RegistrySink<WebSocketChannelDescriptor>): void {
    registry.add({
      id: 'events.feed',
      path: '/ws/events',
      onConnect: (socket) => {
        if (!this.gate.isEnabled('events')) {
          socket.close(4403, 'events add-on not licensed');
          return Disposable.NULL;
        }
        return this.feed.onDidRecordEvent(({ kind }) => {
          if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type: 'events', kind }));
        });
      },
    });
  }
}
