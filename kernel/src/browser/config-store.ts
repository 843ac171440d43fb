import { makeAutoObservable } from 'mobx';
import { token, type BackendConfig } from '../common/index';

export const ConfigStore = token<ConfigStore>('ConfigStore');
/** The backend configuration (spec 000 §3 "Configuration"), read from /api/v2/backend/config. */
export interface ConfigStore {
  readonly config: BackendConfig;
  readonly isAuthenticated: boolean;
  readonly isSuperuser: boolean;
  isEnabled(component: string): boolean;
  /**
   * Whether the signed-in user holds the named permission (spec 002 §6), e.g. `publish_view` before
   * offering the PUBLIC switch of a view; a superuser holds every one. The server checks again.
   */
  hasPermission(name: string): boolean;
  update(config: BackendConfig): void;
}

export class ObservableConfigStore implements ConfigStore {
  config: BackendConfig;

  constructor(initial: BackendConfig) {
    this.config = initial;
    makeAutoObservable(this);
  }

  get isAuthenticated(): boolean {
    return this.config.auth.is_authenticated;
  }

  get isSuperuser(): boolean {
    return this.config.auth.is_superuser;
  }

  isEnabled(component: string): boolean {
    return this.config.components[component] === true;
  }

  hasPermission(name: string): boolean {
    return this.isSuperuser || (this.config.auth.permissions ?? []).includes(name);
  }

  update(config: BackendConfig): void {
    this.config = config;
  }
}
