import type { EditorContribution, MenuContribution, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import { WORKFLOW_PATH, WORKFLOWS_ROUTE } from '../../common/switchboard-types';
import { WorkflowEditor } from './workflow-editor';
import en from './i18n/en.json';
import de from './i18n/de.json';

/** Texts of this area (namespace 'sb-workflows'). */
export const workflowTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'switchboards.sb-workflows', namespace: 'sb-workflows', de, en }),
};

/** spec 000 §2: the workflow list (with its run panel), loaded on demand. */
export const workflowRoutes: RouteContribution = {
  registerRoutes(registry) {
    registry.add({ id: 'switchboards.workflows', path: WORKFLOWS_ROUTE, load: () => import('./workflow-list-screen') });
  },
};

/** spec 002 §2: the workflow editor by address prefix. */
export const workflowEditors: EditorContribution = {
  registerEditors(registry) {
    registry.add({ id: 'switchboards.workflow-editor', prefix: WORKFLOW_PATH, component: WorkflowEditor });
  },
};

/** spec 000 §1: the main menu's Workflows entry, served by this plugin. */
export const workflowMenus: MenuContribution = {
  registerMenus(registry) {
    registry.add({
      id: 'switchboards.workflows',
      menu: 'main',
      label: 'sb-workflows:menu',
      icon: 'flow-linear',
      path: WORKFLOWS_ROUTE,
      order: 30,
    });
  },
};
