import type { Container, ServiceIdentifier } from 'inversify';

/** Collects every binding of a contribution token (multi-injection), in plugin load order. */
export interface ContributionProvider<T> {
  getContributions(): T[];
}

export class ContainerContributionProvider<T> implements ContributionProvider<T> {
  private cache: T[] | undefined;
  constructor(
    private readonly container: Container,
    private readonly token: ServiceIdentifier<T>,
  ) {}

  getContributions(): T[] {
    if (!this.cache) this.cache = this.container.getAll<T>(this.token, { optional: true });
    return this.cache;
  }
}

/** A contribution point or service token: a Symbol that remembers the type it stands for. */
export type Token<T> = symbol & { readonly __tokenType?: T };

/**
 * The token named `name`: a registered symbol (`Symbol.for('werkbank.' + name)`), so every copy of
 * the SDK agrees on it — a plugin tested against its own copy, loaded into a Werkbank with another.
 * Core names are the interface's (`FunctionContribution`); a plugin names its own `<id>.<Name>`.
 */
export function token<T>(name: string): Token<T> {
  return Symbol.for(`werkbank.${name}`) as Token<T>;
}
