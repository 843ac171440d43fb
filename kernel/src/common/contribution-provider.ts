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

export function token<T>(name: string): Token<T> {
  return Symbol(name) as Token<T>;
}
