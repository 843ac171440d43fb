import {
  inject,
  injectable,
  optional,
  type FunctionContribution,
  type FunctionDescriptor,
  type NodeTranslationContribution,
  type RegistrySink,
} from '@werkbank/sdk/node';
import { depotImportFile } from './depot-import';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { DepotAccess } from '@werkbank/plugin-magazine/api';
import { FileAccess } from '@werkbank/plugin-switchboards/api';

/**
 * Streaming imports from files into depots (decision 0020). Files are read through FileAccess
 * (bound by the Switchboards) and written through DepotAccess (bound by the Magazine, which this
 * plugin does not require: without it the function refuses to run with a clear message).
 */
@injectable()
export class DepotImportFunctions implements FunctionContribution {
  @inject(FileAccess) protected readonly files!: FileAccess;
  @inject(DepotAccess) @optional() protected readonly depots: DepotAccess | undefined;

  registerFunctions(registry: RegistrySink<FunctionDescriptor>): void {
    registry.add(depotImportFile(this.files, this.depots));
  }
}

/** The reasons depot.import_file fails with (`geodata-depot-import:errors.*`), in German and English. */
export const depotImportTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) =>
    registry.add({ id: 'geodata.depot-import-translations', namespace: 'geodata-depot-import', de, en }),
};
