import {
  ComponentGate,
  Database,
  inject,
  injectable,
  RequestBodies,
  ResourceServices,
  type DataSource,
} from '@werkbank/sdk/node';

/** The server services the views plugin uses, each by its own token. */
@injectable()
export class ViewsServices {
  @inject(Database) readonly dataSource!: DataSource;
  @inject(ResourceServices) readonly resources!: ResourceServices;
  @inject(RequestBodies) readonly bodies!: RequestBodies;
  @inject(ComponentGate) readonly gate!: ComponentGate;
}
