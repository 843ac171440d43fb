import { token } from '../common/index';
import type {
  CommandRegistry,
  KeybindingRegistry,
  MenuRegistry,
  NodeRendererRegistry,
  RouteRegistry,
  SettingsFieldRegistry,
  TranslationRegistry,
  WorkbenchDatumEditorRegistry,
  WorkbenchEditorRegistry,
} from './contributions';

/** The workbench's registries, filled from the plugins' contributions at start. */
export interface WorkbenchRegistries {
  routes: RouteRegistry;
  menus: MenuRegistry;
  editors: WorkbenchEditorRegistry;
  datumEditors: WorkbenchDatumEditorRegistry;
  translations: TranslationRegistry;
  nodeRenderers: NodeRendererRegistry;
  settingsFields: SettingsFieldRegistry;
  commands: CommandRegistry;
  keybindings: KeybindingRegistry;
}
export const Registries = token<WorkbenchRegistries>('WorkbenchRegistries');
