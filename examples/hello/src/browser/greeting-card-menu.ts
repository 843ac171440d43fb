// #region card-menu
import { ApiClient, I18nService, inject, injectable, NotificationService, type RegistrySink } from '@werkbank/sdk/browser';
import type { DatumCardMenuContribution, DatumCardMenuEntry, DatumMenuTarget } from '@werkbank/plugin-magazine/api';
import { GREETING_CARD } from '../common/greeting-card';

/** True for a datum of the greeting card type (its content type is a name or a type address). */
export const isGreetingCard = (target: DatumMenuTarget): boolean =>
  target.datum.content_type.replace(/^\/api\/v1\/type\//, '').replace(/\/$/, '') === GREETING_CARD;

/**
 * An entry in the Magazine's datum card menu, through the Magazine's typed API: on a greeting
 * card, “Save as greeting” stores the card as a greeting of this plugin. The Magazine is optional
 * for hello: without it nothing collects this contribution.
 */
@injectable()
export class GreetingCardMenu implements DatumCardMenuContribution {
  @inject(ApiClient) protected readonly api!: ApiClient;
  @inject(NotificationService) protected readonly notifications!: NotificationService;
  @inject(I18nService) protected readonly i18n!: I18nService;

  registerDatumCardMenu(registry: RegistrySink<DatumCardMenuEntry>): void {
    registry.add({
      id: 'hello.save-as-greeting',
      label: 'hello:card_menu.save_as_greeting',
      icon: 'hand',
      order: 60,
      when: isGreetingCard,
      run: (target) => void this.save(target),
    });
  }

  protected async save({ datum }: DatumMenuTarget): Promise<void> {
    const name = String(datum.to);
    try {
      await this.api.post('/api/v1/greeting/', { name, message: String(datum.text ?? '') });
      this.notifications.success(this.i18n.i18n.t('hello:card_menu.saved', { name }));
    } catch (e) {
      this.notifications.error((e as Error).message);
    }
  }
}
// #endregion card-menu
