import type { NodeRendererContribution, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import { DefaultNodeBody } from './default-node-body';
import en from './i18n/en.json';
import de from './i18n/de.json';

export const canvasTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'switchboards.translations', namespace: 'switchboards', de, en }),
};

/** spec 000 §2: the canvas screen; loaded on demand. */
export const canvasRoutes: RouteContribution = {
  registerRoutes(registry) {
    registry.add({ id: 'switchboards.canvas', path: '/switchboard/:switchboardId', load: () => import('./canvas-screen') });
  },
};

/** The default node body (priority 0): progress and the exception text. */
export const defaultNodeRenderers: NodeRendererContribution = {
  registerNodeRenderers(registry) {
    registry.add({ id: 'switchboards.default-node', functions: ['*'], priority: 0, component: DefaultNodeBody });
  },
};
