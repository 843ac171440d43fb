import { makeAutoObservable } from 'mobx';
import { token } from '../common/index';

export interface ConfirmRequest {
  message: string;
  confirmLabel?: string;
  intent?: 'danger' | 'primary';
  resolve(ok: boolean): void;
}

export const ConfirmService = token<ConfirmService>('ConfirmService');
/** The confirmation modal (spec 000 §4: show or hide). */
export interface ConfirmService {
  readonly current: ConfirmRequest | undefined;
  confirm(message: string, opts?: { confirmLabel?: string; intent?: 'danger' | 'primary' }): Promise<boolean>;
  answer(ok: boolean): void;
}

export class ObservableConfirmService implements ConfirmService {
  current: ConfirmRequest | undefined = undefined;

  constructor() {
    makeAutoObservable(this);
  }

  confirm(message: string, opts: { confirmLabel?: string; intent?: 'danger' | 'primary' } = {}): Promise<boolean> {
    this.current?.resolve(false);
    return new Promise((resolve) => {
      this.current = { message, ...opts, resolve };
    });
  }

  answer(ok: boolean): void {
    const c = this.current;
    this.current = undefined;
    c?.resolve(ok);
  }
}
