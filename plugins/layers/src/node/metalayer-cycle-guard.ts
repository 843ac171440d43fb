import { inject, injectable, type RegistrySink } from '@werkbank/sdk/node';
import type { DatumWriteGuard, DatumWriteGuardContribution } from '@werkbank/plugin-magazine/api';
import { LayersServices } from './layers-services';
import { refuseLayerDatumCycle } from './metalayer-cycles';

/**
 * Guards writes of layer datums (decision 0063): a layer entry added to a depot a metalayer
 * stacks — edited, written in a batch or by a switchboard, restored, approved — must not make that
 * metalayer contain itself. Runs in the Magazine's write transaction, which a refusal rolls back.
 */
@injectable()
export class MetalayerCycleGuard implements DatumWriteGuardContribution {
  @inject(LayersServices) protected readonly services!: LayersServices;

  registerDatumWriteGuards(registry: RegistrySink<DatumWriteGuard>): void {
    registry.add({
      id: 'layers.metalayer-cycles',
      types: ['layer'],
      check: (req, write) => refuseLayerDatumCycle(req, this.services.depots, write),
    });
  }
}
