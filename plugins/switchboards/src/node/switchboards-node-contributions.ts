import {
  inject,
  injectable,
  type EntityContribution,
  type NodeTranslationContribution,
  type ResourceContribution,
  type ResourceExtensionContribution,
  type StartupHookContribution,
} from '@werkbank/sdk/node';
import { SwitchboardsSchema1764300000000 } from './switchboards-migration';
import { SwitchboardContentBlobs1764400002000 } from './content-blob-migration';
import { SwitchboardFrameFiles1764400003000 } from './frame-file-migration';
import { SwitchboardFrameStorageContext1764500100000 } from './frame-storage-migration';
import { SwitchboardRunMessages1764500200000 } from './run-message-migration';
import { SwitchboardDepotAddresses1764500300100 } from './depot-address-migration';
import { SwitchboardImportHeartbeat1764900002000 } from './import-heartbeat-migration';
import { SwitchboardContentKeyOrder1764900003500 } from './content-key-order-migration';
import { startImportSweep } from './interrupted-imports';
import { switchboardFolderResource, switchboardResource, workflowResource } from './switchboard-resources';
import { nodeResource } from './node-resource';
import { frameResource } from './frame-resource';
import { linkResource } from './link-resource';
import { noteResource } from './note-resource';
import { switchboardRelations } from './contextview';
import { Engine } from './engine';
import { Scheduler } from './scheduler';
import { sweepContent } from './frame-content';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { SwitchboardsServices } from './switchboards-services';

export const switchboardEntities: EntityContribution = {
  registerEntities: (registry) =>
    registry.add({
      id: 'switchboards.entities',
      entities: [],
      migrations: [
        SwitchboardsSchema1764300000000,
        SwitchboardContentBlobs1764400002000,
        SwitchboardFrameFiles1764400003000,
        SwitchboardFrameStorageContext1764500100000,
        SwitchboardRunMessages1764500200000,
        SwitchboardDepotAddresses1764500300100,
        SwitchboardImportHeartbeat1764900002000,
        SwitchboardContentKeyOrder1764900003500,
      ],
    }),
};

export const switchboardTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'switchboards.server-translations', namespace: 'switchboards', de, en }),
};

/** Switchboards, their folders, workflows, and the canvas kinds on the shared resource layer. */
@injectable()
export class SwitchboardResources implements ResourceContribution, ResourceExtensionContribution {
  @inject(SwitchboardsServices) protected readonly services!: SwitchboardsServices;

  registerResources: ResourceContribution['registerResources'] = (registry) => {
    registry.add(switchboardFolderResource);
    registry.add(switchboardResource(this.services));
    registry.add(workflowResource());
    registry.add(nodeResource(this.services));
    registry.add(frameResource(this.services));
    registry.add(linkResource(this.services));
    registry.add(noteResource(this.services));
  };

  registerResourceExtensions: ResourceExtensionContribution['registerResourceExtensions'] = (registry) => {
    registry.add(switchboardRelations());
  };
}

/** Starts the engine (job handler, heartbeat, sweep) and the scheduler; sweeps unused frame content hourly. */
@injectable()
export class SwitchboardStartup implements StartupHookContribution {
  @inject(SwitchboardsServices) protected readonly services!: SwitchboardsServices;
  @inject(Engine) protected readonly engine!: Engine;
  @inject(Scheduler) protected readonly scheduler!: Scheduler;

  registerStartupHooks: StartupHookContribution['registerStartupHooks'] = (registry) => {
    registry.add({
      id: 'switchboards.engine',
      run: async () => {
        await this.engine.start();
        this.scheduler.start();
        const timer = setInterval(
          () =>
            void sweepContent(this.services.dataSource.manager).catch((e: Error) =>
              this.services.log(`Frame content sweep failed: ${e.message}`),
            ),
          60 * 60 * 1000,
        );
        timer.unref();
        return {
          dispose: () => {
            clearInterval(timer);
            this.scheduler.dispose();
            this.engine.dispose();
          },
        };
      },
    });
    registry.add({ id: 'switchboards.interrupted-imports', run: () => startImportSweep(this.services) });
  };
}
