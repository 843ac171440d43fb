import { Registry, type RegistrySink } from './registry';
import { token } from './contribution-provider';

/** A datum type: its name and its base type (spec 000 §3 "Type"). */
export interface DatumTypeDescriptor {
  id: string;
  name: string;
  base?: string;
  /** JSON-schema-like description of the value (used by the Magazine). */
  schema?: unknown;
}

/** The type hierarchy, shared by both sides (STYLE §6: one assignability function). */
export class TypeRegistry extends Registry<DatumTypeDescriptor> {
  private readonly byName = new Map<string, DatumTypeDescriptor>();

  constructor() {
    super('datum type');
    this.onDidChange(() => {
      this.byName.clear();
      for (const t of this.all()) this.byName.set(t.name, t);
    });
  }

  type(name: string): DatumTypeDescriptor | undefined {
    return this.byName.get(name);
  }

  /** The type itself and its bases, most specific first. Stops at unknown types and cycles. */
  baseChain(name: string): string[] {
    const chain: string[] = [];
    let current: string | undefined = name;
    while (current && !chain.includes(current)) {
      chain.push(current);
      current = this.byName.get(current)?.base;
    }
    return chain;
  }

  /** True when `from` equals `to` or derives from it through the base chain. */
  isAssignable(from: string, to: string): boolean {
    return this.baseChain(from).includes(to);
  }
}

/** Datum types contributed by plugins; collected on both sides into a TypeRegistry. */
export const DatumTypeContribution = token<DatumTypeContribution>('DatumTypeContribution');
export interface DatumTypeContribution {
  registerDatumTypes(registry: RegistrySink<DatumTypeDescriptor>): void;
}
