import type { ViewStartMode } from '../common/views-api';
import { firstPlace, fullExtent } from '../common/view-scene';

/**
 * The views plugin's own start modes besides 'Automatic' (decision 0093); other plugins add theirs
 * the same way.
 */
export const VIEWS_START_MODES: ViewStartMode[] = [
  {
    name: 'all_layers',
    labels: { en: 'All layers (also those hidden at start)', de: 'Alle Ebenen (auch die beim Start ausgeblendeten)' },
    start: ({ layergroup }) => {
      const bbox = fullExtent(layergroup);
      return bbox ? { kind: 'extent', bbox } : null;
    },
  },
  {
    name: 'first_place',
    labels: { en: 'The first place (POI)', de: 'Der erste Ort (POI)' },
    start: ({ poigroup }) => {
      const poi = firstPlace(poigroup);
      return poi ? { kind: 'place', poi } : null;
    },
  },
];
