import { token } from '@werkbank/kernel';
import type { FunctionDescriptor } from '../function-contribution';

/** The functions contributed by plugins (what switchboard nodes run), complete once start-up has collected them. */
export interface FunctionCatalog {
  all(): FunctionDescriptor[];
  get(id: string): FunctionDescriptor | undefined;
  /** The plugin that contributed the function. */
  ownerOf(id: string): string | undefined;
}
export const FunctionCatalog = token<FunctionCatalog>('FunctionCatalog');
