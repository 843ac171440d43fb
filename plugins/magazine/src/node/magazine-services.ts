import {
  BlobDownloads,
  BlobStore,
  ComponentGate,
  Database,
  DatumValidator,
  inject,
  injectable,
  Logger,
  MessageBus,
  RequestBodies,
  ResourceServices,
  ServerConfig,
  Translator,
  TypeHierarchy,
  type DataSource,
  type TypeRegistry,
} from '@werkbank/sdk/node';
import { DatumWriteGuards } from './datum-write-guards';

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
  /** Other plugins' checks of datum writes; call `check` on every path that puts datums into a moment. */
  @inject(DatumWriteGuards) readonly writeGuards!: DatumWriteGuards;
  @inject(Logger) protected readonly logger!: Logger;
  @inject(Translator) protected readonly translator!: Translator;

  // Bound, so they can be handed on as functions.
  readonly log = (message: string): void => this.logger.log(message);
  readonly translate = (lang: string, key: string, params?: Record<string, unknown>): string =>
    this.translator.translate(lang, key, params);
}
