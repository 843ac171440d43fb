import {
  BlobDownloads,
  BlobStore,
  ComponentGate,
  Database,
  DatumValidator,
  inject,
  injectable,
  MessageBus,
  RequestBodies,
  ResourceServices,
  ServerConfig,
  TypeHierarchy,
  type DataSource,
  type TypeRegistry,
} from '@werkbank/sdk/node';

/**
 * The server services the Magazine uses, each injected by its own token (so a test or an
 * integrator can rebind any of them); handed to its resources, routes and depot access.
 */
@injectable()
export class MagazineServices {
  @inject(ServerConfig) readonly config!: Readonly<ServerConfig>;
  @inject(Database) readonly dataSource!: DataSource;
  @inject(ResourceServices) readonly resources!: ResourceServices;
  @inject(ComponentGate) readonly gate!: ComponentGate;
  @inject(TypeHierarchy) readonly types!: TypeRegistry;
  @inject(DatumValidator) readonly datumTypes!: DatumValidator;
  @inject(BlobStore) readonly blobs!: BlobStore;
  @inject(BlobDownloads) readonly downloads!: BlobDownloads;
  @inject(RequestBodies) readonly bodies!: RequestBodies;
  @inject(MessageBus) readonly bus!: MessageBus;
}
