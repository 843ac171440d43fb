import {
  BlobDownloads,
  BlobStore,
  ComponentGate,
  Database,
  DatumValidator,
  FunctionCatalog,
  inject,
  injectable,
  JobQueue,
  Logger,
  MessageBus,
  PreparedStatements,
  ProcessRole,
  RequestBodies,
  ResourceServices,
  ServerConfig,
  Translator,
  TypeHierarchy,
  UserDirectory,
  type AuthUser,
  type DataSource,
  type TypeRegistry,
} from '@werkbank/sdk/node';

/**
 * The server services the switchboards use, each injected by its own token (so a test or an
 * integrator can rebind any of them); handed to the engine, resources and routes of this plugin.
 */
@injectable()
export class SwitchboardsServices {
  @inject(ServerConfig) readonly config!: Readonly<ServerConfig>;
  @inject(Database) readonly dataSource!: DataSource;
  @inject(ResourceServices) readonly resources!: ResourceServices;
  @inject(ComponentGate) readonly gate!: ComponentGate;
  @inject(TypeHierarchy) readonly types!: TypeRegistry;
  @inject(DatumValidator) readonly datumTypes!: DatumValidator;
  @inject(FunctionCatalog) readonly functions!: FunctionCatalog;
  @inject(BlobStore) readonly blobs!: BlobStore;
  @inject(BlobDownloads) readonly downloads!: BlobDownloads;
  @inject(RequestBodies) readonly bodies!: RequestBodies;
  @inject(MessageBus) readonly bus!: MessageBus;
  @inject(JobQueue) readonly jobs!: JobQueue;
  @inject(ProcessRole) readonly role!: ProcessRole;
  @inject(Logger) protected readonly logger!: Logger;
  @inject(Translator) protected readonly translator!: Translator;
  @inject(UserDirectory) protected readonly users!: UserDirectory;
  @inject(PreparedStatements) protected readonly statements!: PreparedStatements;

  // Bound, so `log: services.log` hands on a working function.
  readonly log = (message: string): void => this.logger.log(message);

  readonly translate = (lang: string, key: string, params?: Record<string, unknown>): string =>
    this.translator.translate(lang, key, params);

  readonly loadUser = (id: number): Promise<AuthUser | undefined> => this.users.loadUser(id);

  readonly prepared = <T = Record<string, unknown>>(name: string, text: string, values: unknown[]): Promise<T[]> =>
    this.statements.query<T>(name, text, values);
}
