import { definePlugin, ResourceContribution, StartupHookContribution, WebSocketChannelContribution } from '@werkbank/sdk/node';
import { eventResource } from './event-resource';
import { EventsChannel } from './events-channel';
import { eventRetention } from './event-retention';

const eventResources: ResourceContribution = { registerResources: (registry) => registry.add(eventResource) };

export default definePlugin((ctx) => {
  ctx.contribute(ResourceContribution, eventResources);
  ctx.contribute(WebSocketChannelContribution, EventsChannel);
  ctx.contribute(StartupHookContribution, eventRetention);
});
