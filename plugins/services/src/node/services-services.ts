import { inject, injectable, MessageBus, optional, ServerConfig } from '@werkbank/sdk/node';
import { DepotAccess } from '@werkbank/plugin-magazine/api';
import { LayerReader } from '@werkbank/plugin-layers/api';
import { FeatureReprojection } from '@werkbank/plugin-geodata/api';
import { FrozenViews } from '@werkbank/plugin-views/api';

/** The server services the layer services use, each by its own token. */
@injectable()
export class ServicesServices {
  @inject(LayerReader) readonly layers!: LayerReader;
  @inject(DepotAccess) readonly depots!: DepotAccess;
  @inject(FeatureReprojection) readonly reprojection!: FeatureReprojection;
  @inject(MessageBus) readonly bus!: MessageBus;
  @inject(ServerConfig) readonly config!: Readonly<ServerConfig>;
  /** Frozen views' pinned moments (`finalview=`), when the views plugin is installed. */
  @inject(FrozenViews) @optional() readonly frozenViews?: FrozenViews;
}
