import {
  inject,
  injectable,
  type RegistrySink,
  type StartupHookContribution,
  type StartupHookDescriptor,
} from '@werkbank/sdk/node';
import { PublicationMemo } from './publication-memo';

/** Start-up hook: the publication memo of the tile service hears approvals until the server closes. */
@injectable()
export class PublicationMemoStartup implements StartupHookContribution {
  @inject(PublicationMemo) protected readonly memo!: PublicationMemo;

  registerStartupHooks(registry: RegistrySink<StartupHookDescriptor>): void {
    registry.add({ id: 'services.publication-memo', run: () => this.memo.start() });
  }
}
