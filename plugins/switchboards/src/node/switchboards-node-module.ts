import {
  BlobReferenceContribution,
  definePlugin,
  EntityContribution,
  HttpRouteContribution,
  NodeTranslationContribution,
  ResourceContribution,
  ResourceExtensionContribution,
  StartupHookContribution,
  WebSocketChannelContribution,
} from '@werkbank/sdk/node';
import {
  switchboardEntities,
  SwitchboardResources,
  SwitchboardStartup,
  switchboardTranslations,
} from './switchboards-node-contributions';
import { Engine } from './engine';
import { Scheduler } from './scheduler';
import { FunctionRoutes } from './function-routes';
import { CanvasRoutes } from './canvas-routes';
import { ExecutionRoutes } from './execution-routes';
import { FrameContentRoutes } from './frame-content-routes';
import { FrameItemRoutes } from './frame-item-routes';
import { LiveChannels } from './live-channels';
import { SupportRoutes } from './support-routes';
import { switchboardBlobReferences } from './content-blob-references';
import { FrameFileAccess } from './frame-file-access';
import { FileAccess, SwitchboardRuns } from '../common/switchboards-api';
import { SwitchboardRunsService } from './switchboard-runs-service';
import { SwitchboardsServices } from './switchboards-services';

export default definePlugin((ctx) => {
  ctx.bind(SwitchboardsServices).toSelf().inSingletonScope();
  ctx.bind(Engine).toSelf().inSingletonScope();
  ctx.bind(Scheduler).toSelf().inSingletonScope();
  ctx.bind(FileAccess).to(FrameFileAccess).inSingletonScope();
  ctx.bind(SwitchboardRuns).to(SwitchboardRunsService).inSingletonScope();
  ctx.contribute(EntityContribution, switchboardEntities);
  ctx.contribute(NodeTranslationContribution, switchboardTranslations);
  ctx.contribute(ResourceContribution, SwitchboardResources);
  ctx.contribute(ResourceExtensionContribution, SwitchboardResources);
  ctx.contribute(HttpRouteContribution, FunctionRoutes);
  ctx.contribute(HttpRouteContribution, CanvasRoutes);
  ctx.contribute(HttpRouteContribution, ExecutionRoutes);
  ctx.contribute(HttpRouteContribution, FrameContentRoutes);
  ctx.contribute(HttpRouteContribution, FrameItemRoutes);
  ctx.contribute(HttpRouteContribution, SupportRoutes);
  ctx.contribute(WebSocketChannelContribution, LiveChannels);
  ctx.contribute(StartupHookContribution, SwitchboardStartup);
  ctx.contribute(BlobReferenceContribution, switchboardBlobReferences);
});
