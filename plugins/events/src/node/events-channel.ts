import {
  Disposable,
  inject,
  injectable,
  ServerServices,
  type RegistrySink,
  type WebSocketChannelContribution,
  type WebSocketChannelDescriptor,
} from '@werkbank/sdk/node';

/** /ws/events: tells every connected feed that new entries were committed ({"type":"events"}). */
@injectable()
export class EventsChannel implements WebSocketChannelContribution {
  @inject(ServerServices) protected readonly services!: ServerServices;

  registerWebSocketChannels(registry: RegistrySink<WebSocketChannelDescriptor>): void {
    registry.add({
      id: 'events.feed',
      path: '/ws/events',
      onConnect: (socket) => {
        if (!this.services.gate.isEnabled('events')) {
          socket.close(4403, 'events add-on not licensed');
          return Disposable.NULL;
        }
        return this.services.onDidRecordEvent(({ kind }) => {
          if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type: 'events', kind }));
        });
      },
    });
  }
}
