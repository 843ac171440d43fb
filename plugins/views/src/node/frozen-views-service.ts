import { createI18n, inject, injectable, type AuthUser, type ResourceRequest } from '@werkbank/sdk/node';
import type { FrozenViews, LayerPins } from '../common/views-api';
import type { FinalviewPins } from '../common/finalview-fields';
import { ViewsServices } from './views-services';
import en from '../common/i18n/en.json' with { type: 'json' };
import de from '../common/i18n/de.json' with { type: 'json' };

/** FrozenViews for the layer services: a frozen view's pins, read with the caller's rights. */
@injectable()
export class FrozenViewsService implements FrozenViews {
  @inject(ViewsServices) protected readonly services!: ViewsServices;
  private translator?: ReturnType<typeof createI18n>;

  protected request(user: AuthUser): ResourceRequest {
    this.translator ??= createI18n([{ id: 'views.reader', namespace: 'views', de, en }]);
    const lang = user.language === 'de' ? 'de' : 'en';
    return {
      user,
      t: this.translator.getFixedT(lang, 'views'),
      lang,
      manager: this.services.dataSource.manager,
      services: this.services.resources,
    };
  }

  async pins(caller: AuthUser | undefined, slug: string, layerId: number): Promise<LayerPins | undefined> {
    const [row] = (await this.services.dataSource.query(`SELECT id, public, pins FROM views_finalview WHERE slug = $1`, [
      slug,
    ])) as { id: number; public: boolean; pins: FinalviewPins | string }[];
    if (!row) return undefined;
    if (caller) {
      const req = this.request(caller);
      const def = req.services.definitions().find((d) => d.kind === 'finalview')!;
      if (!(await req.services.loadReadable(def, row.id, req))) return undefined;
    } else if (!row.public) return undefined;
    const pins = (typeof row.pins === 'string' ? JSON.parse(row.pins) : row.pins) as FinalviewPins;
    return pins[layerId];
  }
}
