import {
  Database,
  inject,
  injectable,
  Logger,
  MessageBus,
  ProcessRole,
  ServerConfig,
  UrlFetcher,
  type DataSource,
} from '@werkbank/sdk/node';

/** The server services the geodata functions use, each injected by its own token (a test may rebind any). */
@injectable()
export class GeodataServices {
  @inject(ServerConfig) readonly config!: Readonly<ServerConfig>;
  @inject(Database) readonly dataSource!: DataSource;
  @inject(UrlFetcher) readonly net!: UrlFetcher;
  @inject(MessageBus) readonly bus!: MessageBus;
  @inject(ProcessRole) readonly role!: ProcessRole;
  @inject(Logger) protected readonly logger!: Logger;

  // Bound, so `log: services.log` hands on a working function.
  readonly log = (message: string): void => this.logger.log(message);
}
