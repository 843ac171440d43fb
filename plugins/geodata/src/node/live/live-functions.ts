import {
  inject,
  injectable,
  type FunctionContribution,
  type FunctionDescriptor,
  type NodeTranslationContribution,
  type RegistrySink,
} from '@werkbank/sdk/node';
import { sensorthingsImport } from './sta-import';
import { restImport } from './rest-import';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { GeodataServices } from '../geodata-services';

/**
 * The live dataset functions of the geodata library (issue 6): SensorThings API and REST/JsonPath
 * imports, reaching services only through the server's guarded fetcher (GeodataServices.net).
 */
@injectable()
export class LiveFunctions implements FunctionContribution {
  @inject(GeodataServices) protected readonly services!: GeodataServices;

  registerFunctions(registry: RegistrySink<FunctionDescriptor>): void {
    const net = () => this.services.net;
    registry.add(sensorthingsImport(net));
    registry.add(restImport(net));
  }
}

/** The reasons live dataset functions fail with (`geodata-live:errors.*`), in German and English. */
export const liveTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'geodata.live-translations', namespace: 'geodata-live', de, en }),
};
