import {
  inject,
  injectable,
  type FunctionContribution,
  type FunctionDescriptor,
  type NodeTranslationContribution,
  type RegistrySink,
} from '@werkbank/sdk/node';
import { geojsonImport } from './geojson-import';
import { geojsonExport } from './geojson-export';
import { shapefileImport } from './shapefile-import';
import { kmlImport } from './kml-import';
import { geopackageImport } from './geopackage-import';
import { geopackageExport } from './geopackage-export';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { FileAccess } from '@werkbank/plugin-switchboards/api';

/**
 * The vector functions of the geodata library (issue 6): GeoJSON, zipped Shapefile, KML/KMZ and
 * GeoPackage import; GeoJSON and GeoPackage export. Files are read
 * through FileAccess (bound by the Switchboards) as the user who runs the switchboard.
 */
@injectable()
export class VectorFunctions implements FunctionContribution {
  @inject(FileAccess) protected readonly files!: FileAccess;

  registerFunctions(registry: RegistrySink<FunctionDescriptor>): void {
    const functions = [
      geojsonImport(this.files),
      geojsonExport,
      shapefileImport(this.files),
      kmlImport(this.files),
      geopackageImport(this.files),
      geopackageExport,
    ];
    for (const fn of functions) registry.add(fn);
  }
}

/** The vector contribution under the name the geodata module binds. */
export const vectorFunctions = VectorFunctions;

/** The reasons the vector functions fail with (`geodata-vector:errors.*`), in German and English. */
export const vectorTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'geodata.vector-translations', namespace: 'geodata-vector', de, en }),
};
