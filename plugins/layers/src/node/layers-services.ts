import {
  BlobDownloads,
  BlobStore,
  ComponentGate,
  Database,
  inject,
  injectable,
  optional,
  RequestBodies,
  ResourceServices,
  ServerConfig,
  TypeHierarchy,
  type DataSource,
  type TypeRegistry,
} from '@werkbank/sdk/node';
import { DepotAccess } from '@werkbank/plugin-magazine/api';
import { SwitchboardRuns } from '@werkbank/plugin-switchboards/api';

/** The server services the layers plugin uses, each by its own token; handed to its resource and routes. */
@injectable()
export class LayersServices {
  @inject(Database) readonly dataSource!: DataSource;
  @inject(ResourceServices) readonly resources!: ResourceServices;
  @inject(TypeHierarchy) readonly types!: TypeRegistry;
  @inject(RequestBodies) readonly bodies!: RequestBodies;
  @inject(DepotAccess) readonly depots!: DepotAccess;
  @inject(ComponentGate) readonly gate!: ComponentGate;
  @inject(ServerConfig) readonly config!: Readonly<ServerConfig>;
  /** The switchboard of a node run, when the Switchboards are installed (a pile's `switchboard`). */
  @inject(SwitchboardRuns) @optional() readonly runs?: SwitchboardRuns;
  @inject(BlobStore) readonly blobs!: BlobStore;
  @inject(BlobDownloads) readonly downloads!: BlobDownloads;
}
