import {
  BlobDownloads,
  BlobStore,
  ComponentGate,
  Database,
  inject,
  injectable,
  RequestBodies,
  ResourceServices,
  ServerConfig,
  type DataSource,
} from '@werkbank/sdk/node';
import { LayerReader } from '@werkbank/plugin-layers/api';
import { DepotAccess } from '@werkbank/plugin-magazine/api';

/** The server services the views plugin uses, each by its own token. */
@injectable()
export class ViewsServices {
  @inject(Database) readonly dataSource!: DataSource;
  @inject(ResourceServices) readonly resources!: ResourceServices;
  @inject(RequestBodies) readonly bodies!: RequestBodies;
  @inject(ComponentGate) readonly gate!: ComponentGate;
  /** Uploaded preview images: stored, read for their signature and served (decision 0092). */
  @inject(BlobStore) readonly blobs!: BlobStore;
  @inject(BlobDownloads) readonly downloads!: BlobDownloads;
  /** Service address templates and the base map, for the viewer's scenes. */
  @inject(ServerConfig) readonly config!: Readonly<ServerConfig>;
  /** Layers with their piles, read with a user's rights (frozen views pin them). */
  @inject(LayerReader) readonly layers!: LayerReader;
  /** The Magazine: the approved moment of a pile's depot. */
  @inject(DepotAccess) readonly depots!: DepotAccess;
}
