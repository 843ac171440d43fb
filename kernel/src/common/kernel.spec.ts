import assert from 'node:assert/strict';
import { inject, injectable } from 'inversify';
import { token } from './contribution-provider';
import { Kernel, KernelToken, PluginManifests } from './kernel';
import { definePlugin, PluginLoadError, type PluginEntry, type PluginModule } from './plugin';
import { DuplicateRegistrationError, Registry, type Registered, type RegistrySink } from './registry';

interface Command extends Registered {
  label: string;
}

/** A contribution point as plugins see it (STYLE §2): one interface, one token, one register method. */
interface CommandContribution {
  registerCommands(registry: RegistrySink<Command>): void;
}
const CommandContribution = token<CommandContribution>('test.CommandContribution');

@injectable()
class CoreCommands implements CommandContribution {
  registerCommands(registry: RegistrySink<Command>): void {
    registry.add({ id: 'core.open', label: 'Open' });
    registry.add({ id: 'core.close', label: 'Close' });
  }
}

const mapsCommands: CommandContribution = {
  registerCommands(registry) {
    registry.add({ id: 'maps.zoom', label: 'Zoom' });
  },
};

const entry = (id: string, module: PluginModule, requires: string[] = []): PluginEntry => ({
  manifest: { id, requires },
  module,
});

function corePlugin(): PluginEntry {
  return entry(
    'core',
    definePlugin((ctx) => ctx.contribute(CommandContribution, CoreCommands)),
  );
}

function mapsPlugin(): PluginEntry {
  return entry(
    'maps',
    definePlugin((ctx) => ctx.contribute(CommandContribution, mapsCommands)),
    ['core'],
  );
}

describe('Kernel', () => {
  let kernel: Kernel;
  let commands: Registry<Command>;

  beforeEach(() => {
    kernel = new Kernel({ log: () => {} });
    commands = new Registry<Command>('command');
  });

  afterEach(() => kernel.dispose());

  describe('load', () => {
    it('loads plugin modules in dependency order and returns their manifests', () => {
      const loaded = kernel.load([mapsPlugin(), corePlugin()]);
      assert.deepEqual(
        loaded.map((m) => m.id),
        ['core', 'maps'],
      );
      assert.equal(kernel.plugins, loaded);
      assert.equal(kernel.container.get(PluginManifests), loaded);
      assert.equal(kernel.container.get(KernelToken), kernel);
    });

    it('refuses a missing requirement before loading any module', () => {
      let registered = false;
      const core = entry(
        'core',
        definePlugin(() => {
          registered = true;
        }),
      );
      assert.throws(
        () =>
          kernel.load([
            core,
            entry(
              'x',
              definePlugin(() => {}),
              ['missing'],
            ),
          ]),
        PluginLoadError,
      );
      assert.equal(registered, false);
      assert.deepEqual(kernel.plugins, []);
    });

    it('binds an injectable contribution class as a singleton under the token and under its own class', () => {
      kernel.load([corePlugin()]);
      const [contribution] = kernel.contributions(CommandContribution).getContributions();
      assert.ok(contribution instanceof CoreCommands);
      assert.equal(kernel.container.get(CoreCommands), contribution);
      assert.equal(kernel.container.getAll(CommandContribution)[0], contribution);
    });

    it('injects services a plugin binds into its contribution classes', () => {
      const Greeting = Symbol('Greeting');
      @injectable()
      class GreetingCommands implements CommandContribution {
        @inject(Greeting) private readonly greeting!: string;
        registerCommands(registry: RegistrySink<Command>): void {
          registry.add({ id: 'greet.hello', label: this.greeting });
        }
      }
      kernel.load([
        entry(
          'greet',
          definePlugin((ctx) => {
            ctx.bind(Greeting).toConstantValue('Hallo');
            ctx.contribute(CommandContribution, GreetingCommands);
          }),
        ),
      ]);
      kernel.collect(CommandContribution, commands, (c, sink) => c.registerCommands(sink));
      assert.equal(commands.get('greet.hello')?.label, 'Hallo');
      assert.equal(commands.ownerOf('greet.hello'), 'greet');
    });

    it('binds a constant contribution value as it is', () => {
      kernel.load([corePlugin(), mapsPlugin()]);
      const all = kernel.contributions(CommandContribution).getContributions();
      assert.equal(all.length, 2);
      assert.ok(all.includes(mapsCommands));
    });

    it('remembers which plugin contributed each class and each value', () => {
      kernel.load([corePlugin(), mapsPlugin()]);
      const core = kernel.container.get(CoreCommands);
      assert.equal(kernel.ownerOf(core), 'core');
      assert.equal(kernel.ownerOf(mapsCommands), 'maps');
      assert.equal(kernel.ownerOf({}), 'unknown');
      assert.equal(kernel.ownerOf(undefined), 'unknown');
    });

    it('loads a plugin without a module for this side', () => {
      kernel.load([{ manifest: { id: 'docs-only' } }]);
      assert.deepEqual(
        kernel.plugins.map((m) => m.id),
        ['docs-only'],
      );
    });
  });

  describe('collect', () => {
    it('gives each contribution a sink that records the contributing plugin', () => {
      kernel.load([corePlugin(), mapsPlugin()]);
      kernel.collect(CommandContribution, commands, (c, sink) => c.registerCommands(sink));
      assert.deepEqual(
        commands
          .all()
          .map((c) => c.id)
          .sort(),
        ['core.close', 'core.open', 'maps.zoom'],
      );
      assert.equal(commands.ownerOf('core.open'), 'core');
      assert.equal(commands.ownerOf('core.close'), 'core');
      assert.equal(commands.ownerOf('maps.zoom'), 'maps');
    });

    it('refuses the same id from two plugins, naming both plugins', () => {
      const thief = entry(
        'thief',
        definePlugin((ctx) =>
          ctx.contribute(CommandContribution, {
            registerCommands: (registry: RegistrySink<Command>) => registry.add({ id: 'core.open', label: 'Mine' }),
          }),
        ),
      );
      kernel.load([corePlugin(), thief]);
      assert.throws(
        () => kernel.collect(CommandContribution, commands, (c, sink) => c.registerCommands(sink)),
        (e: unknown) => {
          assert.ok(e instanceof DuplicateRegistrationError);
          assert.equal(e.message, "Duplicate command 'core.open': registered by plugin 'core' and again by plugin 'thief'");
          return true;
        },
      );
    });

    it('collects nothing when no plugin contributes to the token', () => {
      kernel.load([{ manifest: { id: 'empty' } }]);
      kernel.collect(CommandContribution, commands, (c, sink) => c.registerCommands(sink));
      assert.deepEqual(commands.all(), []);
    });

    it('lets a contribution remove what it added through the returned disposable', () => {
      kernel.load([
        entry(
          'core',
          definePlugin((ctx) =>
            ctx.contribute(CommandContribution, {
              registerCommands: (registry: RegistrySink<Command>) => registry.add({ id: 'core.temp', label: 'Temp' }).dispose(),
            }),
          ),
        ),
      ]);
      kernel.collect(CommandContribution, commands, (c, sink) => c.registerCommands(sink));
      assert.deepEqual(commands.all(), []);
      assert.equal(kernel.disposables.size, 0);
    });
  });

  describe('dispose', () => {
    it('removes everything registered through the kernel and unbinds the container, leaking nothing', () => {
      const other = new Registry<Command>('other command');
      kernel.load([corePlugin(), mapsPlugin()]);
      kernel.collect(CommandContribution, commands, (c, sink) => c.registerCommands(sink));
      kernel.collect(CommandContribution, other, (c, sink) => c.registerCommands(sink));
      assert.equal(commands.all().length, 3);
      assert.equal(kernel.disposables.size, 6);

      kernel.dispose();

      assert.deepEqual(commands.owned(), []);
      assert.deepEqual(other.owned(), []);
      assert.equal(kernel.disposables.size, 0);
      assert.equal(kernel.disposables.isDisposed, true);
      assert.equal(kernel.container.isBound(CommandContribution), false);
      assert.equal(kernel.container.isBound(KernelToken), false);
    });

    it('leaves items registered by others in the same registry alone', () => {
      const host = commands.add({ id: 'host.quit', label: 'Quit' }, 'host');
      kernel.load([corePlugin()]);
      kernel.collect(CommandContribution, commands, (c, sink) => c.registerCommands(sink));
      kernel.dispose();
      assert.deepEqual(
        commands.all().map((c) => c.id),
        ['host.quit'],
      );
      host.dispose();
    });

    it('may be called twice', () => {
      kernel.load([corePlugin()]);
      kernel.collect(CommandContribution, commands, (c, sink) => c.registerCommands(sink));
      kernel.dispose();
      assert.doesNotThrow(() => kernel.dispose());
      assert.deepEqual(commands.all(), []);
    });
  });

  describe('timed', () => {
    /** A clock the hook under test moves forward by hand: no real waiting, no timing on a busy machine. */
    function manualClock(): { now: () => number; advance: (ms: number) => void } {
      let t = 1_000;
      return { now: () => t, advance: (ms) => (t += ms) };
    }

    it('logs a start-up hook slower than 100 ms by its id', async () => {
      const log: string[] = [];
      const clock = manualClock();
      const timedKernel = new Kernel({ log: (m) => log.push(m), now: clock.now });
      const result = await timedKernel.timed('maps.warm-cache', async () => {
        clock.advance(101);
        return 42;
      });
      assert.equal(result, 42);
      assert.deepEqual(log, ["Start-up hook 'maps.warm-cache' took 101 ms (limit 100 ms)"]);
      timedKernel.dispose();
    });

    it('logs nothing for a hook of exactly 100 ms or less', async () => {
      const log: string[] = [];
      const clock = manualClock();
      const timedKernel = new Kernel({ log: (m) => log.push(m), now: clock.now });
      assert.equal(await timedKernel.timed('core.fast', () => 'done'), 'done');
      assert.equal(
        await timedKernel.timed('core.at-limit', () => {
          clock.advance(100);
          return 'also done';
        }),
        'also done',
      );
      assert.deepEqual(log, []);
      timedKernel.dispose();
    });

    it('passes on what a failing hook throws', async () => {
      const failing = new Error('boom');
      await assert.rejects(
        kernel.timed('core.fails', () => {
          throw failing;
        }),
        failing,
      );
    });
  });
});
