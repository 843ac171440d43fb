import { Container, ContainerModule, type ServiceIdentifier, type Newable } from 'inversify';
import { Disposable, DisposableCollection } from './disposable';
import { ContainerContributionProvider, type ContributionProvider, type Token } from './contribution-provider';
import { sortPlugins, type PluginEntry, type PluginContext, type PluginManifest } from './plugin';
import { sinkFor, type Registered, type Registry, type RegistrySink } from './registry';

export const KernelToken = Symbol.for('werkbank.Kernel');
export const PluginManifests = Symbol.for('werkbank.PluginManifests');

function isClass(v: unknown): v is Newable<unknown> {
  return typeof v === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(v));
}

/**
 * One inversify container per side. Loads plugins in dependency order, remembers who contributed
 * what, and owns everything registered during start-up as disposables.
 */
export class Kernel implements Disposable {
  readonly container = new Container();
  readonly disposables = new DisposableCollection();
  private readonly owners = new Map<unknown, string>();
  private loaded: PluginManifest[] = [];
  private readonly slowLog: (msg: string) => void;
  private readonly now: () => number;

  /** `now` is the clock `timed` measures with (milliseconds; `performance.now` unless given). */
  constructor(options: { log?: (msg: string) => void; now?: () => number } = {}) {
    this.slowLog = options.log ?? ((m) => console.warn(m));
    this.now = options.now ?? (() => performance.now());
    this.container.bind(KernelToken).toConstantValue(this);
  }

  /** Sorts the entries (refusing missing, duplicate and cyclic requirements) and loads each module. */
  load(entries: PluginEntry[]): PluginManifest[] {
    const sorted = sortPlugins(entries);
    for (const entry of sorted) {
      const pluginId = entry.manifest.id;
      if (entry.module) {
        const module = entry.module;
        this.container.load(
          new ContainerModule((opts) => {
            const ctx: PluginContext = {
              pluginId,
              bind: opts.bind,
              rebind: opts.rebind,
              isBound: opts.isBound,
              contribute: <T>(token: Token<T> | ServiceIdentifier<T>, impl: Newable<T> | T) => {
                if (isClass(impl)) {
                  if (!opts.isBound(impl)) opts.bind(impl).toSelf().inSingletonScope();
                  opts.bind(token).toService(impl as Newable<T>);
                  this.owners.set(impl, pluginId);
                } else {
                  opts.bind(token).toConstantValue(impl as T);
                  this.owners.set(impl, pluginId);
                }
              },
            };
            module.register(ctx);
          }),
        );
      }
      this.loaded.push(entry.manifest);
    }
    if (!this.container.isBound(PluginManifests)) this.container.bind(PluginManifests).toConstantValue(this.loaded);
    return this.loaded;
  }

  get plugins(): PluginManifest[] {
    return this.loaded;
  }

  contributions<T>(token: ServiceIdentifier<T>): ContributionProvider<T> {
    return new ContainerContributionProvider<T>(this.container, token);
  }

  /** The plugin that contributed an instance (by its class or the constant value itself). */
  ownerOf(contribution: unknown): string {
    if (contribution && typeof contribution === 'object') {
      const byValue = this.owners.get(contribution);
      if (byValue) return byValue;
      const byClass = this.owners.get((contribution as object).constructor);
      if (byClass) return byClass;
    }
    return 'unknown';
  }

  /**
   * Calls `register(contribution, sink)` for each contribution of `token`, giving each a sink that
   * records the contributing plugin. Whatever the sinks return is disposed with the kernel.
   */
  collect<C, T extends Registered>(
    token: Token<C>,
    registry: Registry<T>,
    register: (contribution: C, sink: RegistrySink<T>) => void,
  ): void {
    for (const c of this.contributions<C>(token).getContributions()) {
      const owner = this.ownerOf(c);
      const base = sinkFor(registry, owner);
      register(c, { add: (item) => this.disposables.push(base.add(item)) });
    }
  }

  /** Runs a hook and logs it when it takes longer than 100 ms (STYLE §8). */
  async timed<R>(id: string, fn: () => R | Promise<R>): Promise<R> {
    const start = this.now();
    try {
      return await fn();
    } finally {
      const ms = this.now() - start;
      if (ms > 100) this.slowLog(`Start-up hook '${id}' took ${Math.round(ms)} ms (limit 100 ms)`);
    }
  }

  dispose(): void {
    this.disposables.dispose();
    this.container.unbindAll();
  }
}
