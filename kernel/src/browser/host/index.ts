/**
 * @werkbank/kernel/browser-host: the workbench host (React root, router, shell). Used by the
 * server's browser entry and the test harness; never by plugins.
 */
export { createWorkbench, CORE_TRANSLATIONS, type Workbench } from './workbench';
export { WorkbenchApp, useMinWidth } from './workbench-app';
export { startWorkbench } from './start-workbench';
export { SIDEBAR_DOCK_MIN_WIDTH, SIDEBAR_WIDTH, MAIN_MENU, SPEC_ROUTE_FEATURES } from './spec-routes';
