import {
  inject,
  injectable,
  type EntityContribution,
  type NodeTranslationContribution,
  type ResourceContribution,
} from '@werkbank/sdk/node';
import { MagazineSchema1764100000000 } from './magazine-migration';
import { MagazineBlobSweep1764100001000 } from './blob-sweep-migration';
import { MagazineMomentLineage1764200000000 } from './moment-lineage-migration';
import { MagazineSharedBlobSweep1764400001000 } from './shared-blob-sweep-migration';
import { MagazineDepotAddresses1764500300000 } from './depot-address-migration';
import { MagazineUploadHeartbeat1764900001000 } from './upload-heartbeat-migration';
import { MagazineDatumKeyOrder1764900003000 } from './datum-key-order-migration';
import { MagazineBulkLayout1765000000000 } from './bulk-layout-migration';
import { MagazineDatumExtent1765100000000 } from './datum-extent-migration';
import { MagazineDepotMetadataObjects1796200000001 } from './depot-metadata-migration';
import { MagazineDatumBlocks1796500000000 } from './datum-block-migration';
import { MagazineDatumCells1796600000000 } from './datum-cell-migration';
import { depotFolderResource } from './depotfolder-resource';
import { depotResource } from './depot-resource';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { MagazineServices } from './magazine-services';

export const magazineEntities: EntityContribution = {
  registerEntities: (registry) =>
    registry.add({
      id: 'magazine.entities',
      entities: [],
      migrations: [
        MagazineSchema1764100000000,
        MagazineBlobSweep1764100001000,
        MagazineMomentLineage1764200000000,
        MagazineSharedBlobSweep1764400001000,
        MagazineDepotAddresses1764500300000,
        MagazineUploadHeartbeat1764900001000,
        MagazineDatumKeyOrder1764900003000,
        MagazineBulkLayout1765000000000,
        MagazineDatumExtent1765100000000,
        MagazineDepotMetadataObjects1796200000001,
        MagazineDatumBlocks1796500000000,
        MagazineDatumCells1796600000000,
      ],
    }),
};

/** Depot folders and depots on the shared resource layer. */
@injectable()
export class MagazineResources implements ResourceContribution {
  @inject(MagazineServices) protected readonly services!: MagazineServices;

  registerResources: ResourceContribution['registerResources'] = (registry) => {
    registry.add(depotFolderResource);
    registry.add(depotResource(this.services));
  };
}

export const magazineTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'magazine.server-translations', namespace: 'magazine', de, en }),
};
