import {
  Kernel,
  TypeRegistry,
  DatumTypeContribution,
  createI18n,
  normaliseLanguage,
  type BackendConfig,
  type PluginEntry,
  type TranslationBundle,
} from '../../common/index';
import {
  CommandContribution,
  CommandRegistry,
  DatumEditorContribution,
  EditorContribution,
  KeybindingContribution,
  KeybindingRegistry,
  MenuContribution,
  MenuRegistry,
  NodeRendererContribution,
  NodeRendererRegistry,
  RouteContribution,
  RouteRegistry,
  SettingsFieldContribution,
  SettingsFieldRegistry,
  TranslationContribution,
  TranslationRegistry,
  WorkbenchDatumEditorRegistry,
  WorkbenchEditorRegistry,
} from '../contributions';
import { ApiClient, FetchApiClient } from '../api-client';
import { ConfigStore, ObservableConfigStore } from '../config-store';
import { NotificationService, ObservableNotificationService } from '../notification-service';
import { NavigationStore, PersistedNavigationStore } from '../navigation-store';
import { ConfirmService, ObservableConfirmService } from '../confirm-service';
import { Navigator, RouterNavigator } from '../navigator';
import { DefaultI18nService, I18nService } from '../i18n-service';
import { Registries, type WorkbenchRegistries } from '../workbench-registries';
import { TypeHierarchy } from '../../common/index';
import coreEn from '../i18n/en.json';
import coreDe from '../i18n/de.json';

export { Registries, type WorkbenchRegistries } from '../workbench-registries';
export { TypeHierarchy } from '../../common/index';

export interface Workbench {
  kernel: Kernel;
  registries: WorkbenchRegistries;
  config: ConfigStore;
  i18n: I18nService;
  dispose(): void;
}

export const CORE_TRANSLATIONS: TranslationBundle = { id: 'core.translations', namespace: 'core', de: coreDe, en: coreEn };

/**
 * Builds the browser kernel: binds the workbench services, loads the plugins (already filtered to
 * the ones the server runs) in dependency order and fills the registries from their contributions.
 */
export function createWorkbench(entries: PluginEntry[], backendConfig: BackendConfig): Workbench {
  const kernel = new Kernel();
  const c = kernel.container;
  const registries: WorkbenchRegistries = {
    routes: new RouteRegistry(),
    menus: new MenuRegistry(),
    editors: new WorkbenchEditorRegistry(),
    datumEditors: new WorkbenchDatumEditorRegistry(),
    translations: new TranslationRegistry(),
    nodeRenderers: new NodeRendererRegistry(),
    settingsFields: new SettingsFieldRegistry(),
    commands: new CommandRegistry(),
    keybindings: new KeybindingRegistry(),
  };
  const config = new ObservableConfigStore(backendConfig);
  c.bind(Registries).toConstantValue(registries);
  const types = new TypeRegistry();
  c.bind(TypeHierarchy).toConstantValue(types);
  c.bind(ConfigStore).toConstantValue(config);
  c.bind(NotificationService).toConstantValue(new ObservableNotificationService());
  c.bind(NavigationStore).toConstantValue(new PersistedNavigationStore());
  c.bind(ConfirmService).toConstantValue(new ObservableConfirmService());
  c.bind(Navigator).toConstantValue(new RouterNavigator());
  let notFound = 'Das angegebene Objekt wurde nicht gefunden.';
  const api = new FetchApiClient(() => notFound);
  c.bind(ApiClient).toConstantValue(api);

  kernel.load(entries);
  kernel.disposables.push(registries.translations.add(CORE_TRANSLATIONS, 'core'));
  // spec 000 §2: /library/ opens in a new tab.
  kernel.disposables.push(
    registries.menus.add(
      { id: 'core.library', menu: 'user', label: 'core:user.library', icon: 'book', path: '/library/', newTab: true, order: 5 },
      'core',
    ),
  );
  kernel.collect(TranslationContribution, registries.translations, (x, s) => x.registerTranslations(s));
  kernel.collect(RouteContribution, registries.routes, (x, s) => x.registerRoutes(s));
  kernel.collect(MenuContribution, registries.menus, (x, s) => x.registerMenus(s));
  kernel.collect(EditorContribution, registries.editors, (x, s) => x.registerEditors(s));
  kernel.collect(DatumEditorContribution, registries.datumEditors, (x, s) => x.registerDatumEditors(s));
  kernel.collect(NodeRendererContribution, registries.nodeRenderers, (x, s) => x.registerNodeRenderers(s));
  kernel.collect(SettingsFieldContribution, registries.settingsFields, (x, s) => x.registerSettingsFields(s));
  kernel.collect(CommandContribution, registries.commands, (x, s) => x.registerCommands(s));
  kernel.collect(DatumTypeContribution, types, (x, s) => x.registerDatumTypes(s));
  kernel.collect(KeybindingContribution, registries.keybindings, (x, s) => x.registerKeybindings(s));

  const instance = createI18n(registries.translations.all(), normaliseLanguage(backendConfig.auth.language));
  notFound = String(instance.t('core:notfound.object'));
  instance.on('languageChanged', () => (notFound = String(instance.t('core:notfound.object'))));
  const i18n = new DefaultI18nService(instance, api, () => config.isAuthenticated);
  c.bind(I18nService).toConstantValue(i18n);
  return { kernel, registries, config, i18n, dispose: () => kernel.dispose() };
}
