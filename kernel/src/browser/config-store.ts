import { makeAutoObservable } from 'mobx';
import { token, type BackendConfig } from '../common/index';

export const ConfigStore = token<ConfigStore>('ConfigStore');
/** The backend configuration (spec 000 §3 "Configuration"), read from /api/v2/backend/config. */
export interface ConfigStore {
  readonly config: BackendConfig;
  readonly isAuthenticated: boolean;
  readonly isSuperuser: boolean;
  isEnabled(component: string): boolean;
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

  update(config: BackendConfig): void {
    this.config = config;
  }
}
