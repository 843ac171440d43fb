/**
 * The large plugin node sides in parts, each measured as a module of its own
 * (`plugin-<plugin>-<part>`; `npm run mutate -- --list` shows their files and specs). See
 * scripts/mutate-modules.ts for the other modules and docs/mutation-testing.md for how to run them.
 */
import type { MutationModule } from './mutate-modules';

/**
 * A part of a large plugin node side, measured as a module of its own (`plugin-<plugin>-<part>`):
 * one Stryker run of a whole large node side took longer than a working session, mostly because
 * each mutant of a module constant (descriptors, OpenAPI texts) runs every spec of the module in a
 * fresh process. `files` are paths under the plugin's `src/node` without `.ts` (globs allowed), each
 * with its `.spec.ts` beside it; `suites` the plugin's API suites (`test/<name>.spec.ts`) that
 * reach the part, `more` further spec paths. A part may miss a kill by a suite of another part (its
 * survivors then say so); it never counts a kill that did not happen.
 */
export interface PluginPart {
  files: string[];
  suites: string[];
  more?: string[];
}

export function pluginParts(plugin: string, parts: Record<string, PluginPart>): MutationModule[] {
  const node = `plugins/${plugin}/src/node`;
  return Object.entries(parts).map(([part, { files, suites, more = [] }]) => ({
    name: `plugin-${plugin}-${part}`,
    about: `the node side of the ${plugin} plugin: ${part}`,
    mutate: [...files.map((f) => `${node}/${f}.ts`), `!${node}/**/*.spec.ts`, `!${node}/**/*.d.ts`, `!${node}/**/*-test-*.ts`],
    specs: [...files.map((f) => `${node}/${f}.spec.ts`), ...suites.map((s) => `plugins/${plugin}/test/${s}.spec.ts`), ...more],
  }));
}

const VIEWS_SUITES = [
  'views-analytics',
  'views-finalviews',
  'views-image',
  'views-resource',
  'views-scenes',
  'views-translations',
];
const VIEWS_MORE = ['plugins/views/src/common/**/*.spec.ts', 'test/api/conventions.spec.ts'];

/** The views plugin's node side in two halves of about 750 lines (1,061 mutants took 2 h and more), each with all its specs. */
export const VIEWS_PARTS: Record<string, PluginPart> = {
  content: {
    files: [
      'view-scene-routes',
      'view-image-routes',
      'view-image-blob-references',
      'view-image-migration',
      'view-analytics-routes',
      'view-visitor-statistics',
      'view-visits-service',
      'view-events-extension',
    ],
    suites: VIEWS_SUITES,
    more: VIEWS_MORE,
  },
  resource: {
    files: [
      'view-resource',
      'finalview-resource',
      'finalview-routes',
      'frozen-views-service',
      'view-translation-routes',
      'views-migration',
      'views-node-module',
      'views-services',
      'view-start-modes',
      'view-rows',
    ],
    suites: VIEWS_SUITES,
    more: VIEWS_MORE,
  },
};

/** The layers plugin's node side (3,400 lines, 14 API suites) by area, each with the suites that reach it. */
export const LAYERS_PARTS: Record<string, PluginPart> = {
  tiles: {
    files: ['layer-tile-routes', 'layer-tiles-service', 'tiles-blob-references', 'tiles-migration', 'tiles/*'],
    suites: ['layers-pmtiles'],
  },
  metadata: {
    files: ['iso19139', 'layer-iso', 'depot-iso', 'metadata-migration', 'metadata-resources', 'metadata-routes'],
    suites: ['layers-metadata', 'layers-typed-metadata'],
  },
  styles: {
    files: [
      'legend-blob-references',
      'legend-migration',
      'legend-png',
      'legend-routes',
      'layer-style-save',
      'layer-style-source',
    ],
    suites: ['layers-legend', 'layers-style', 'layers-style-datum'],
  },
  piles: {
    files: ['pile-store', 'metalayer-cycle-guard', 'metalayer-cycles', 'layer-templates-service', 'layer-template-types'],
    suites: [
      'layers-piles',
      'layers-create-in-pile',
      'layers-pile-switchboard',
      'layers-stacks',
      'layers-datum-cycles',
      'layers-templates',
    ],
  },
  resource: {
    files: [
      'layer-resource',
      'layer-routes',
      'layer-data',
      'layer-reader-service',
      'depot-layers-service',
      'layer-events-extension',
      'layers-migration',
      'layers-node-contributions',
      'layers-node-module',
      'layers-openapi',
      'layers-services',
    ],
    suites: ['layers-resource', 'layers-tabs', 'layers-stacks'],
    more: ['test/api/conventions.spec.ts'],
  },
};

/**
 * The Magazine's node side by area (4,800 lines), without the files the moment-store and
 * moment-bulk modules measure.
 */
export const MAGAZINE_PARTS: Record<string, PluginPart> = {
  datums: {
    files: ['datum-routes', 'datum-codec', 'datum-write', 'datum-write-guards', 'datum-blocks', 'datum-extent-sql', 'bulk-rows'],
    suites: ['magazine-depots', 'magazine-moments', 'magazine-extents', 'magazine-moment-actions'],
    more: ['plugins/magazine/src/node/key-order-text.spec.ts'],
  },
  depots: {
    files: [
      'depot-resource',
      'depot-routes',
      'depotfolder-resource',
      'depot-crs',
      'depot-layer-routes',
      'folder-paths',
      'file-path',
      'magazine-contextview',
    ],
    suites: ['magazine-depots', 'magazine-moments', 'magazine-extents'],
  },
  access: {
    files: ['depot-access-service', 'depot-access', 'staged-import'],
    suites: ['magazine-depot-access', 'magazine-bulk-write', 'magazine-streams', 'magazine-extents'],
  },
  uploads: {
    files: ['upload-routes', 'upload-status', 'uploaded-file', 'interrupted-uploads', 'datum-blob-references'],
    suites: ['magazine-uploads', 'magazine-large-upload', 'magazine-restore-history'],
  },
  module: {
    files: [
      '*-migration',
      'magazine-maintenance',
      'magazine-node-contributions',
      'magazine-node-module',
      'magazine-openapi',
      'magazine-routes',
      'magazine-services',
    ],
    suites: ['magazine-depots', 'magazine-uploads', 'magazine-moments'],
    more: ['test/api/conventions.spec.ts'],
  },
};

/** The Switchboards' node side (6,800 lines, 15 API suites) by area, each with the suites that reach it. */
export const SWITCHBOARDS_PARTS: Record<string, PluginPart> = {
  engine: {
    files: ['engine', 'engine-*', 'execution-*', 'graph', 'run-plan', 'workflow-inputs', 'scheduler'],
    suites: ['switchboard-engine', 'switchboard-workflows', 'switchboard-support-request'],
  },
  runs: {
    files: [
      'node-runner',
      'node-run-*',
      'run-failed',
      'run-message',
      'run-recorder',
      'progress-reporter',
      'local-runs',
      'function-call',
      'outdated',
      'switchboard-runs-service',
    ],
    suites: ['switchboard-engine', 'switchboard-workflows', 'switchboard-functions', 'switchboard-support-request'],
  },
  frames: {
    files: ['frame-content', 'frame-content-routes', 'frame-item-*', 'frame-resource', 'frame-write'],
    suites: ['switchboard-frame-items', 'switchboard-canvas', 'switchboard-engine'],
  },
  files: {
    files: [
      'frame-file-access',
      'frame-file-fields',
      'frame-file-name',
      'frame-file-records',
      'frame-file-routes',
      'switchboard-file',
      'switchboard-import',
      'interrupted-imports',
      'content-blob-references',
    ],
    suites: ['switchboard-files', 'switchboard-frame-files', 'switchboard-frame-upload'],
  },
  canvas: {
    files: [
      'canvas-kind',
      'canvas-routes',
      'links',
      'link-resource',
      'node-resource',
      'note-resource',
      'contextview',
      'presence',
      'live',
      'live-channels',
    ],
    suites: ['switchboard-canvas', 'switchboard-links', 'switchboard-live', 'switchboard-map'],
  },
  module: {
    files: [
      '*-migration',
      'switchboard-resources',
      'switchboard-access',
      'switchboard-openapi',
      'switchboards-node-contributions',
      'switchboards-node-module',
      'switchboards-services',
      'support-routes',
      'function-routes',
      'function-catalog',
      'route-caller',
      'i18n-text',
    ],
    suites: [
      'switchboard-permissions',
      'switchboard-security',
      'switchboard-support-request',
      'switchboard-functions',
      'switchboard-without-magazine',
    ],
    more: ['test/api/conventions.spec.ts'],
  },
};

/** The services plugin's node side (8,400 lines, 17 API suites) by service, each with the suites that reach it. */
export const SERVICES_PARTS: Record<string, PluginPart> = {
  wfs: {
    files: ['wfs-documents', 'wfs-endpoint', 'wfs-gml', 'wfs-stored-queries'],
    suites: ['services-wfs', 'services-wfs-requests', 'services-wfs-stored-queries'],
  },
  'wfs-filter': {
    files: ['wfs-filter', 'wfs-query'],
    suites: ['services-wfs', 'services-wfs-requests', 'services-wfs-stored-queries'],
  },
  oapif: {
    files: ['oapif-*', 'geojson-endpoint', 'csv-rows', 'feature-schemas', 'served-feature', 'utf8-chunks'],
    suites: ['services-oapif', 'services-geojson'],
  },
  tiles: {
    files: [
      'mvt-encoding',
      'ogc-tiles-endpoint',
      'vector-tile-service',
      'vector-tile-task',
      'tile-cache',
      'tile-cache-migration',
    ],
    suites: ['services-vtiles'],
  },
  external: {
    files: ['external-maps', 'external-wms-info', 'external-map-task', 'remote-xml'],
    suites: ['services-external'],
  },
  publication: {
    files: ['published-layers', 'publication-memo', 'publication-memo-startup', 'services-node-module', 'services-services'],
    suites: ['services-finalview', 'services-two-processes', 'services-oapif', 'services-wms'],
    more: ['test/api/conventions.spec.ts'],
  },
  'wms-render': {
    files: [
      'wms/map-render-task',
      'wms/packed-features',
      'wms/polygon-batches',
      'wms/png-writer',
      'wms/map-geometry-cache',
      'wms/map-icons',
      'wms/style-images',
      'wms/legend-draw',
    ],
    suites: ['services-wms', 'services-graphics', 'services-wms-filters'],
  },
  wms: {
    files: [
      'wms/wms-endpoint',
      'wms/wms-capabilities',
      'wms/wms-request-parts',
      'wms/wms-area',
      'wms/wms-feature-info',
      'wms/feature-info-merge',
    ],
    suites: ['services-wms', 'services-wms-mapserver', 'services-wms-filters', 'services-qgis'],
  },
  metalayer: {
    files: ['wms/wms-metalayer', 'wms/metalayer-task'],
    suites: ['services-metalayer'],
  },
  wmts: {
    files: ['wmts/*'],
    suites: ['services-wmts', 'services-wmts-info'],
  },
};
