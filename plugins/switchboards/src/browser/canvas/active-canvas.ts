import {
  inject,
  injectable,
  token,
  type CommandContribution,
  type KeybindingContribution,
  type RegistrySink,
} from '@werkbank/sdk/browser';
import type { CommandDescriptor, KeybindingDescriptor } from '@werkbank/sdk/browser';
import type { CanvasController } from './canvas-controller';

/** The canvas screen that is open, if any (the keyboard commands act on it). */
export const ActiveCanvas = token<ActiveCanvas>('switchboards.ActiveCanvas');
export interface ActiveCanvas {
  current?: CanvasController;
}

/**
 * The canvas shortcuts (spec 000 §2): f function insert, d data insert, s or e settings, r run after
 * a confirmation. The kernel dispatches them only without modifiers, with no input focused and no
 * dialog open; they also do nothing while the context view is open.
 */
@injectable()
export class CanvasCommands implements CommandContribution, KeybindingContribution {
  @inject(ActiveCanvas) protected readonly active!: ActiveCanvas;

  private on(run: (c: CanvasController) => unknown): () => void {
    return () => {
      const c = this.active.current;
      if (c && !c.dialog && !c.contextViewOpen) void run(c);
    };
  }

  registerCommands(registry: RegistrySink<CommandDescriptor>): void {
    registry.add({
      id: 'switchboards.insert-function',
      label: 'switchboards:menu.add_function',
      run: this.on((c) => c.openDialog({ kind: 'insert', mode: 'function' })),
    });
    registry.add({
      id: 'switchboards.insert-data',
      label: 'switchboards:menu.add_data',
      run: this.on((c) => c.openDialog({ kind: 'insert', mode: 'data' })),
    });
    registry.add({
      id: 'switchboards.settings',
      label: 'switchboards:menu.settings',
      run: this.on((c) => c.openDialog({ kind: 'settings' })),
    });
    registry.add({ id: 'switchboards.run', label: 'switchboards:run.run', run: this.on((c) => c.confirmRun()) });
  }

  registerKeybindings(registry: RegistrySink<KeybindingDescriptor>): void {
    const when = '/switchboard/';
    registry.add({ id: 'switchboards.key-f', key: 'f', command: 'switchboards.insert-function', when });
    registry.add({ id: 'switchboards.key-d', key: 'd', command: 'switchboards.insert-data', when });
    registry.add({ id: 'switchboards.key-s', key: 's', command: 'switchboards.settings', when });
    registry.add({ id: 'switchboards.key-e', key: 'e', command: 'switchboards.settings', when });
    registry.add({ id: 'switchboards.key-r', key: 'r', command: 'switchboards.run', when });
  }
}
