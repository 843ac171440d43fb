import { NotificationService, useService } from '@werkbank/kernel/browser';

/**
 * A multi-select menu's action over the selected objects (spec 000 §8 "… N items"): each object is
 * its own call; the count that succeeded is announced with `done` (given `{count}`), the first
 * refusal is shown, the rest still run, and `onDone` refreshes the list.
 */
export function useBulkAction<T>(items: T[], onDone: () => void, message: (key: string, count: number) => string) {
  const notifications = useService(NotificationService);
  return async (call: (item: T) => Promise<unknown>, done: string): Promise<void> => {
    let count = 0;
    let failure: string | undefined;
    for (const item of items) {
      try {
        await call(item);
        count++;
      } catch (e) {
        failure ??= (e as Error).message;
      }
    }
    if (count) notifications.success(message(done, count));
    if (failure) notifications.error(failure);
    onDone();
  };
}
