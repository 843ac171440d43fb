/**
 * What the browser bundle gets for `import … from 'cesium'` (Vite alias in server/vite.config.ts):
 * Cesium's engine without its widgets package. The widgets bring knockout, which evaluates a string
 * (`(0, eval)('this')`) as soon as it loads — the CSP forbids that, and the map uses the bare
 * CesiumWidget anyway (decision 0065).
 */
export * from '@cesium/engine';

/** resium imports the Viewer (a widget); Werkbank's maps never create one. */
export class Viewer {
  constructor() {
    throw new Error('The Cesium Viewer is not part of the Werkbank bundle: use CesiumWidget.');
  }
}
