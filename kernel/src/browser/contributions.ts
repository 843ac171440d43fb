import type { ComponentType } from 'react';
import {
  token,
  EditorRegistry,
  DatumEditorRegistry,
  Registry,
  TranslationRegistry,
  type RegistrySink,
  type EditorDescriptor,
  type DatumEditorDescriptor,
  type TranslationBundle,
} from '../common/index';

/** Browser-side contribution points (DESIGN §2). Each has a token of the same name. */

/** A screen at a route of spec 000 §2 (react-router path syntax, e.g. `/layers/edit/:id`). */
export interface RouteDescriptor {
  id: string;
  path: string;
  /** The screen, or `load` for screens loaded on demand (STYLE §8). */
  component?: ComponentType;
  load?: () => Promise<{ default: ComponentType }>;
  /** Shown without the sidebar (e.g. a full-screen viewer). */
  bare?: boolean;
}
export const RouteContribution = token<RouteContribution>('RouteContribution');
export interface RouteContribution {
  registerRoutes(registry: RegistrySink<RouteDescriptor>): void;
}

export type MenuId = 'main' | 'secondary' | 'user' | (string & {});

export interface MenuItemContext {
  isSuperuser: boolean;
  isEnabled(component: string): boolean;
}

/** An entry of a menu (main menu, secondary menu, user menu, context menus, title-bar dropdowns). */
export interface MenuItemDescriptor {
  id: string;
  menu: MenuId;
  /** Translation key `ns:key`. */
  label: string;
  icon?: string;
  /** Route to open; or `run` for a command. */
  path?: string;
  /**
   * The command. In a context menu (e.g. a card's menu) it receives the object the menu was opened
   * on; each context-menu id documents what that object is.
   */
  run?: (target?: unknown) => void;
  /** Lower first. */
  order?: number;
  /** Opens in a new browser tab (spec 000 §2: /library/). */
  newTab?: boolean;
  /** A full page load instead of client routing (spec 000 §2: /accounts/logout/, /backend/). */
  fullReload?: boolean;
  /** Shown only when true; `target` as for `run`. */
  when?: (ctx: MenuItemContext, target?: unknown) => boolean;
}
export const MenuContribution = token<MenuContribution>('MenuContribution');
export interface MenuContribution {
  registerMenus(registry: RegistrySink<MenuItemDescriptor>): void;
}

/** Props every object editor receives. */
export interface EditorProps {
  /** The object's resource address, or its list address for a new object. */
  address: string;
  onClose(saved: boolean): void;
}
export type EditorComponent = ComponentType<EditorProps>;
export const EditorContribution = token<EditorContribution>('EditorContribution');
export interface EditorContribution {
  registerEditors(registry: RegistrySink<EditorDescriptor<EditorComponent>>): void;
}

export interface DatumEditorProps {
  contentType: string;
  value: unknown;
  readOnly?: boolean;
  onChange(value: unknown): void;
}
export type DatumEditorComponent = ComponentType<DatumEditorProps>;
export const DatumEditorContribution = token<DatumEditorContribution>('DatumEditorContribution');
export interface DatumEditorContribution {
  registerDatumEditors(registry: RegistrySink<DatumEditorDescriptor<DatumEditorComponent>>): void;
}

export const TranslationContribution = token<TranslationContribution>('TranslationContribution');
export interface TranslationContribution {
  registerTranslations(registry: RegistrySink<TranslationBundle>): void;
}

/** What a node renderer receives: the node as the canvas holds it, and the frames it writes. */
export interface NodeRendererProps {
  node: {
    id: number;
    resource_uri: string;
    func: string;
    status: string;
    outdated: boolean;
    runinfo: { progress: number | null; count: number; exception: string | null };
  };
  /** The frames linked to the node's outputs, in port order; updated live. */
  outputs: Array<{ port: string; frame: string; name: string; type: string; size: number; text_repr: string }>;
}

/**
 * Draws the body of a switchboard node on the canvas (below the title, between the ports) for the
 * functions it claims. The canvas chooses the highest priority among the renderers whose `functions`
 * match the node's function (exact name before namespace prefix); the default renderer has priority 0.
 */
export interface NodeRendererDescriptor {
  id: string;
  /** Function names, or namespace prefixes ending in '.'. '*' matches every function. */
  functions: string[];
  priority?: number;
  component: ComponentType<NodeRendererProps>;
}
export const NodeRendererContribution = token<NodeRendererContribution>('NodeRendererContribution');
export interface NodeRendererContribution {
  registerNodeRenderers(registry: RegistrySink<NodeRendererDescriptor>): void;
}

/** A kind of field of the generic settings editor (spec 001 §1). */
export interface SettingsFieldDescriptor {
  id: string;
  kind: string;
  component: ComponentType<{ value: unknown; onChange(v: unknown): void; definition: unknown }>;
}
export const SettingsFieldContribution = token<SettingsFieldContribution>('SettingsFieldContribution');
export interface SettingsFieldContribution {
  registerSettingsFields(registry: RegistrySink<SettingsFieldDescriptor>): void;
}

export interface CommandDescriptor {
  id: string;
  /** Translation key `ns:key`. */
  label: string;
  run(...args: unknown[]): unknown;
  isEnabled?(): boolean;
}
export const CommandContribution = token<CommandContribution>('CommandContribution');
export interface CommandContribution {
  registerCommands(registry: RegistrySink<CommandDescriptor>): void;
}

/** A key binding; active only without modifiers, with no input focused and no dialog open. */
export interface KeybindingDescriptor {
  id: string;
  key: string;
  command: string;
  /** Route pattern (prefix) where the binding applies; default everywhere. */
  when?: string;
}
export const KeybindingContribution = token<KeybindingContribution>('KeybindingContribution');
export interface KeybindingContribution {
  registerKeybindings(registry: RegistrySink<KeybindingDescriptor>): void;
}

/** The registries the workbench fills from the contributions, bound under these tokens. */
export class RouteRegistry extends Registry<RouteDescriptor> {
  constructor() {
    super('route');
  }
}
export class MenuRegistry extends Registry<MenuItemDescriptor> {
  constructor() {
    super('menu item');
  }
  /** The entries of `menu` whose `when` holds, in order; `target` is a context menu's object. */
  items(menu: MenuId, ctx: MenuItemContext, target?: unknown): MenuItemDescriptor[] {
    return this.all()
      .filter((i) => i.menu === menu && (!i.when || i.when(ctx, target)))
      .sort((a, b) => (a.order ?? 100) - (b.order ?? 100) || a.id.localeCompare(b.id));
  }
}
export class WorkbenchEditorRegistry extends EditorRegistry<EditorComponent> {}
export class WorkbenchDatumEditorRegistry extends DatumEditorRegistry<DatumEditorComponent> {}
export class NodeRendererRegistry extends Registry<NodeRendererDescriptor> {
  constructor() {
    super('node renderer');
  }
}
export class SettingsFieldRegistry extends Registry<SettingsFieldDescriptor> {
  constructor() {
    super('settings field');
  }
}
export class CommandRegistry extends Registry<CommandDescriptor> {
  constructor() {
    super('command');
  }
  execute(id: string, ...args: unknown[]): unknown {
    const c = this.get(id);
    if (!c) throw new Error(`Unknown command '${id}'`);
    return c.run(...args);
  }
}
export class KeybindingRegistry extends Registry<KeybindingDescriptor> {
  constructor() {
    super('key binding');
  }
}
export { TranslationRegistry };
