/**
 * The licensed components of Werkbank (DESIGN §2). A licence enables a subset; the server is the
 * authority and the browser reads the switches from /api/v2/backend/config.
 */
export const KNOWN_COMPONENTS = [
  'tags',
  'node_runs',
  'metadata',
  'events',
  'filter_editor',
  'analytics',
  'sessions',
  'api_stats',
  'magazine',
  'view_translation_editor',
  'parquet',
] as const;

export type ComponentName = (typeof KNOWN_COMPONENTS)[number] | (string & {});

export type ComponentSwitches = Record<string, boolean>;

export class ComponentDisabledError extends Error {
  constructor(readonly component: string) {
    super(`The ${component} add-on has not yet been licensed.`);
    this.name = 'ComponentDisabledError';
  }
}

export const ComponentGate = Symbol.for('werkbank.ComponentGate');

/** Answers whether a licensed component is switched on. */
export interface ComponentGate {
  isEnabled(component: string): boolean;
  switches(): ComponentSwitches;
  /** Throws ComponentDisabledError when the component is off. */
  require(component: string): void;
}

export class StaticComponentGate implements ComponentGate {
  constructor(private current: ComponentSwitches = {}) {}

  isEnabled(component: string): boolean {
    return this.current[component] === true;
  }

  switches(): ComponentSwitches {
    return { ...this.current };
  }

  require(component: string): void {
    if (!this.isEnabled(component)) throw new ComponentDisabledError(component);
  }

  update(switches: ComponentSwitches): void {
    this.current = { ...switches };
  }
}
