import { makeAutoObservable } from 'mobx';
import { token } from '../common/index';

/** spec 000 §9: notifications live 5200 ms. */
export const NOTIFICATION_LIFETIME_MS = 5200;

export type NotificationIntent = 'success' | 'danger' | 'warning' | 'primary' | 'none';

export interface Notification {
  key: string;
  message: string;
  intent: NotificationIntent;
  dismissAfter: number;
}

export const NotificationService = token<NotificationService>('NotificationService');
export interface NotificationService {
  readonly notifications: readonly Notification[];
  notify(message: string, intent?: NotificationIntent, dismissAfter?: number): string;
  success(message: string): string;
  error(message: string): string;
  dismiss(key: string): void;
}

let seq = 0;

export class ObservableNotificationService implements NotificationService {
  notifications: Notification[] = [];

  constructor() {
    makeAutoObservable(this);
  }

  notify(message: string, intent: NotificationIntent = 'none', dismissAfter = NOTIFICATION_LIFETIME_MS): string {
    const key = `n${++seq}`;
    this.notifications.push({ key, message, intent, dismissAfter });
    return key;
  }

  success(message: string): string {
    return this.notify(message, 'success');
  }

  error(message: string): string {
    return this.notify(message, 'danger');
  }

  dismiss(key: string): void {
    this.notifications = this.notifications.filter((n) => n.key !== key);
  }
}
