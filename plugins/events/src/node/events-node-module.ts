import { definePlugin, ResourceContribution, WebSocketChannelContribution } from '@werkbank/sdk/node';
import { eventResource } from './event-resource';
import { EventsChannel } from './events-channel';

const eventResources: ResourceContribution = { registerResources: (registry) => registry.add(eventResource) };

export default definePlugin((ctx) => {
  ctx.contribute(ResourceContribution, eventResources);
  ctx.contribute(WebSocketChannelContribution, EventsChannel);
});
