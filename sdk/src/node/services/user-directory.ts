import { token } from '@werkbank/kernel';
import type { AuthUser } from '../http-context';

/** Users as requests see them (permissions and groups included), e.g. for work queued on their behalf. */
export interface UserDirectory {
  /** The user, or undefined when there is none with this id or it may not sign in any more. */
  loadUser(id: number): Promise<AuthUser | undefined>;
}
export const UserDirectory = token<UserDirectory>('UserDirectory');
