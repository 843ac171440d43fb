import {
  inject,
  injectable,
  type FunctionContribution,
  type FunctionDescriptor,
  type NodeTranslationContribution,
  type RegistrySink,
} from '@werkbank/sdk/node';
import { csvImport } from './csv-import';
import { csvExport } from './csv-export';
import { excelImport } from './excel-import';
import { rowsToFeaturesFunction } from './rows-to-features';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { FileAccess } from '@werkbank/plugin-switchboards/api';

/**
 * The tabular functions of the geodata library (issue 6): CSV import and export, Excel import, rows to features.
 * CSV and Excel files are read through FileAccess (bound by the Switchboards) as the user who runs the switchboard.
 */
@injectable()
export class TabularFunctions implements FunctionContribution {
  @inject(FileAccess) protected readonly files!: FileAccess;

  registerFunctions(registry: RegistrySink<FunctionDescriptor>): void {
    for (const fn of [csvImport(this.files), csvExport, excelImport(this.files), rowsToFeaturesFunction]) registry.add(fn);
  }
}

/** The reasons the tabular functions fail with (`geodata-tabular:errors.*`), in German and English. */
export const tabularTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'geodata.tabular-translations', namespace: 'geodata-tabular', de, en }),
};
