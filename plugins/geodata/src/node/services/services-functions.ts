import {
  inject,
  injectable,
  type FunctionContribution,
  type FunctionDescriptor,
  type NodeTranslationContribution,
  type RegistrySink,
} from '@werkbank/sdk/node';
import { arcgisFeatureServerImport, arcgisMapServerImport } from './arcgis-import';
import { urlsFromDataset } from './dataset-urls';
import { gmlImport } from './gml-import';
import { wfsImport } from './wfs-import';
import { wmsImport } from './wms-import';
import { wmtsImport } from './wmts-import';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { GeodataServices } from '../geodata-services';
import { FileAccess } from '@werkbank/plugin-switchboards/api';

/** The reasons the service imports fail with (`geodata-services:errors.*`), in German and English. */
export const servicesTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) =>
    registry.add({ id: 'geodata.services-translations', namespace: 'geodata-services', de, en }),
};

/**
 * The service imports of the geodata library (issue 6, spec 001 §7), the functions the insert
 * dialog's url tab picks: WFS, WMS, WMTS, ArcGIS FeatureServer and MapServer, dataset listings,
 * and GML files. Every request goes through the server's guarded fetcher (GeodataServices.net);
 * files are read through FileAccess as the user who runs the switchboard.
 */
@injectable()
export class ServicesFunctions implements FunctionContribution {
  @inject(GeodataServices) protected readonly services!: GeodataServices;
  @inject(FileAccess) protected readonly files!: FileAccess;

  /** The functions; the fetcher is looked up per run, so a replaced GeodataServices.net applies. */
  functions(): FunctionDescriptor[] {
    const net = () => this.services.net;
    return [
      gmlImport(this.files),
      wfsImport(net),
      wmsImport(net),
      wmtsImport(net),
      arcgisFeatureServerImport(net),
      arcgisMapServerImport(net),
      urlsFromDataset(net),
    ];
  }

  registerFunctions(registry: RegistrySink<FunctionDescriptor>): void {
    for (const fn of this.functions()) registry.add(fn);
  }
}
