export * from '../common/index';
export * from './contributions';
export * from './api-client';
export * from './config-store';
export * from './notification-service';
export * from './navigation-store';
export * from './confirm-service';
export * from './navigator';
export * from './i18n-service';
export * from './react-context';
export {
  createWorkbench,
  Registries,
  TypeHierarchy,
  CORE_TRANSLATIONS,
  type Workbench,
  type WorkbenchRegistries,
} from './host/workbench';
export { WorkbenchApp, useMinWidth } from './host/workbench-app';
export { startWorkbench } from './host/start-workbench';
export { SIDEBAR_DOCK_MIN_WIDTH, SIDEBAR_WIDTH, MAIN_MENU, SPEC_ROUTE_FEATURES } from './host/spec-routes';
