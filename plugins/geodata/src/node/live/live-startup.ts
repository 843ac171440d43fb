import {
  inject,
  injectable,
  type RegistrySink,
  type StartupHookContribution,
  type StartupHookDescriptor,
} from '@werkbank/sdk/node';
import { LiveDatasetWatcher } from './live-dataset-watcher';
import { isRunning, liveTargets } from './live-watch-targets';
import { STA_IMPORT } from './sta-import';
import { REST_IMPORT } from './rest-import';
import { GeodataServices } from '../geodata-services';

/**
 * Starts the LiveDatasetWatcher on API servers (not on worker processes) and stops it when the
 * server closes. Start-up does no I/O of its own: the first lookup runs in the background.
 */
@injectable()
export class LiveDatasetStartup implements StartupHookContribution {
  @inject(GeodataServices) protected readonly services!: GeodataServices;

  registerStartupHooks(registry: RegistrySink<StartupHookDescriptor>): void {
    registry.add({
      id: 'geodata.live-datasets',
      run: () => {
        const services = this.services;
        if (services.role !== 'server') return;
        const watcher = new LiveDatasetWatcher({
          net: services.net,
          bus: services.bus,
          log: services.log,
          targets: () => liveTargets(services.dataSource, [STA_IMPORT, REST_IMPORT]),
          isRunning: (id) => isRunning(services.dataSource, id),
          minPollSeconds: services.config.liveRestMinInterval,
        });
        watcher.start();
        return watcher;
      },
    });
  }
}
