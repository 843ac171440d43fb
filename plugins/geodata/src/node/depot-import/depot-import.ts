import type { FrameItems, FunctionDescriptor, FunctionRunContext } from '@werkbank/sdk/node';
import { part } from '../source-items';
import { failure as tabularFailure, itemsOf } from '../tabular/tabular-params';
import { BatchChannel } from './batch-channel';
import { failure } from './depot-import-failure';
import { BATCH, streamFile } from './file-batches';
import { depotImportPorts, depotImportSettings, formatOf, type DepotImportSettings, type FORMATS } from './import-settings';
import { type DepotAccess } from '@werkbank/plugin-magazine/api';
import { type FileAccess, type OpenedFile } from '@werkbank/plugin-switchboards/api';

/** An opened file with the format it is read in. */
type OpenedSource = OpenedFile & { format: (typeof FORMATS)[number] };

/** A depot item's reference for DepotAccess: its address (`/api/v1/depot/3/`) or id (as depot.store takes it). */
function depotRef(inputs: Parameters<FunctionDescriptor['run']>[0]): string | number {
  const depots = itemsOf(inputs, 'depot');
  if (depots.length !== 1) throw failure('parameter_single', { port: 'depot', count: depots.length });
  const value = depots[0].value;
  if ((typeof value === 'string' && value.trim()) || typeof value === 'number') return value;
  throw failure('not_a_depot', { item: 'depot[0]' });
}

/**
 * `depot.import_file`: CSV or GeoJSON files streamed into ONE new moment of a depot of features,
 * in batches of BATCH, as the running user (decision 0020). Frames cannot carry this volume (the
 * engine caps an output and holds a frame in memory); here memory holds a few batches whatever
 * the file size. All or nothing: a broken row, an invalid feature or a refused write leaves the
 * depot as it was.
 */
export function depotImportFile(files: FileAccess, depots: DepotAccess | undefined): FunctionDescriptor {
  return {
    id: 'depot.import_file',
    version: '2',
    verbose_name: { de: 'Datei in Depot importieren', en: 'Import file into depot' },
    doc: {
      de:
        'Liest CSV- oder GeoJSON-Dateien (Eingang file) als Datenstrom und schreibt ihre Features in Stapeln von ' +
        `${BATCH} als einen neuen Moment in das Depot (Eingang depot, ein Depot für Features): mode replace ersetzt seinen ` +
        'Inhalt (Standard), append hängt an. So kommen auch Dateien mit Millionen Zeilen ins Depot, ohne dass der Speicher ' +
        'mit der Dateigröße wächst; sie laufen nicht durch einen Frame. Alles oder nichts: eine fehlerhafte Zeile, ein ' +
        'ungültiges Feature oder fehlende Schreibrechte lassen das Depot unverändert. format – csv oder geojson (Standard: ' +
        'nach der Dateiendung .csv/.txt bzw. .geojson/.json). CSV: die Einstellungen von „CSV importieren“ (header, ' +
        'encoding, names, sep, skiprows, skipfooter, decimal, transposed) und die Geometrie wie bei „Zeilen zu Features“ ' +
        '(Koordinatenspalten x und y, oder eine WKT-Spalte wkt). auto_transform und crs wie bei „GeoJSON importieren“: ' +
        'Koordinaten werden nach EPSG:4326 umprojiziert, wenn ihr Bezugssystem bekannt und ein anderes ist; für CSV nennt ' +
        'nur crs das Bezugssystem. Ausgang moment: der geschriebene Moment; count: die Zahl der Features.',
      en:
        'Reads CSV or GeoJSON files (input file) as a stream and writes their features in batches of ' +
        `${BATCH} as one new moment into the depot (input depot, a depot of features): mode replace replaces its content ` +
        '(default), append adds to it. This brings files with millions of rows into a depot without memory growing with ' +
        'the file size; they do not pass through a frame. All or nothing: a broken row, an invalid feature or a missing ' +
        'write permission leave the depot unchanged. format – csv or geojson (default: by the file extension .csv/.txt or ' +
        '.geojson/.json). CSV: the settings of “Import CSV” (header, encoding, names, sep, skiprows, skipfooter, decimal, ' +
        'transposed) and the geometry as “Rows to features” makes it (coordinate columns x and y, or a WKT column wkt). ' +
        'auto_transform and crs as in “Import GeoJSON”: coordinates are reprojected to EPSG:4326 when their reference ' +
        'system is known and another one; for CSV only crs names it. Output moment: the moment written; count: the number ' +
        'of features.',
    },
    inputs: depotImportPorts(files),
    outputs: [
      { name: 'moment', content_type: 'int' },
      { name: 'count', content_type: 'int' },
    ],
    run: async (inputs, ctx) => {
      if (!depots) throw failure('no_depots');
      const settings = depotImportSettings(inputs);
      const fileItems = itemsOf(inputs, 'file');
      if (!fileItems.length) throw failure('no_file');
      const depot = depotRef(inputs);
      // Every file is opened (and its format known) before the write begins: the write holds a
      // database transaction, which on the embedded database is its only connection.
      const opened = await openAll(files, fileItems, settings, ctx);
      const channel = new BatchChannel<FrameItems>((push) => streamFiles(opened, settings, ctx, push));
      let written;
      try {
        written = await depots.writeStream(ctx.user, depot, channel, {
          nodeRunId: ctx.nodeRunId,
          mode: settings.mode,
          lang: ctx.lang,
        });
      } finally {
        await channel.settled();
        for (const file of opened) file.stream.destroy();
      }
      ctx.recordWrite({ depot_id: written.depot_id, moment_id: written.moment_id });
      ctx.log(`wrote ${written.count} features to depot ${written.depot_id} as moment ${written.moment_id}`);
      ctx.progress(1);
      return { moment: [{ value: written.moment_id }], count: [{ value: written.count }] };
    },
  };
}

/** Each file opened through FileAccess as the running user, named and with its format. */
async function openAll(
  files: FileAccess,
  items: FrameItems,
  settings: DepotImportSettings,
  ctx: FunctionRunContext,
): Promise<OpenedSource[]> {
  const opened: OpenedSource[] = [];
  try {
    for (const [i, item] of items.entries()) {
      let file;
      try {
        file = await files.open(ctx.user, item);
      } catch {
        throw tabularFailure('file_unreadable', { item: `file[${i}]`, name: String(item.value ?? '') });
      }
      const name = file.name || `file[${i}]`;
      try {
        opened.push({ ...file, name, format: formatOf(settings, name) });
      } catch (e) {
        file.stream.destroy();
        throw e;
      }
    }
  } catch (e) {
    for (const file of opened) file.stream.destroy();
    throw e;
  }
  return opened;
}

/** The features of every file, one file after the other, each its share of the progress. */
async function streamFiles(
  opened: OpenedSource[],
  settings: DepotImportSettings,
  ctx: FunctionRunContext,
  push: (features: FrameItems) => Promise<void>,
): Promise<void> {
  for (const [i, file] of opened.entries()) {
    ctx.log(`${file.name}: ${file.size} bytes`);
    await streamFile(file, file.format, settings, part(ctx, i, opened.length), push);
  }
}
