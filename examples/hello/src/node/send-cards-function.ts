// #region send-cards
import {
  inject,
  injectable,
  itemsOf,
  optional,
  paramOf,
  Translator,
  type FunctionContribution,
  type FunctionDescriptor,
  type RegistrySink,
} from '@werkbank/sdk/node';
import { DepotAccess } from '@werkbank/plugin-magazine/api';
import { GREETING_CARD } from '../common/greeting-card';

/**
 * `hello.send_cards`: writes one greeting card per name into a depot of greeting cards, through
 * the Magazine's DepotAccess (its API), as the user who runs the switchboard — their write
 * permission on the depot decides. The Magazine is optional for hello: without it nothing is bound
 * to DepotAccess, and the function is not offered.
 */
@injectable()
export class SendCardsFunction implements FunctionContribution {
  @inject(DepotAccess) @optional() protected readonly depots?: DepotAccess;
  @inject(Translator) protected readonly translator!: Translator;

  registerFunctions(registry: RegistrySink<FunctionDescriptor>): void {
    const depots = this.depots;
    if (!depots) return;
    registry.add({
      id: 'hello.send_cards',
      version: '1',
      verbose_name: { de: 'Grußkarten verschicken', en: 'Send greeting cards' },
      doc: {
        de: 'Legt für jeden Namen in names eine Grußkarte im Depot depot ab (angehängt als neuer Moment).',
        en: 'Puts a greeting card for each name in names into the depot depot (appended as a new moment).',
      },
      inputs: [
        { name: 'names', content_type: 'string' },
        { name: 'depot', content_type: 'depot' },
      ],
      outputs: [{ name: 'cards', content_type: GREETING_CARD }],
      run: async (inputs, ctx) => {
        const depot = paramOf(inputs, 'depot') as string | number;
        const cards = itemsOf(inputs, 'names').map((n) => ({
          to: String(n.value),
          text: this.translator.translate(ctx.lang, 'hello:greet.text', { name: n.value }),
          stamps: 1,
        }));
        const written = await depots.write(ctx.user, depot, cards, { nodeRunId: ctx.nodeRunId, mode: 'append', lang: ctx.lang });
        ctx.recordWrite(written);
        ctx.progress(1);
        return { cards };
      },
    });
  }
}
// #endregion send-cards
