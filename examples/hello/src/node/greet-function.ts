// #region greet-function
import {
  inject,
  injectable,
  paramOf,
  Translator,
  yieldToLoop,
  ApiError,
  type FrameItems,
  type FunctionContribution,
  type FunctionDescriptor,
  type RegistrySink,
} from '@werkbank/sdk/node';

/** The most greetings one node writes. */
export const GREET_MAX = 1000;

/**
 * `hello.greet`: a switchboard function. Inputs are ports with a content type; a port the user
 * leaves unlinked takes its `default_value`. It writes `count` greetings in the language of the
 * user who runs the switchboard, reporting progress as it goes.
 */
@injectable()
export class GreetFunction implements FunctionContribution {
  @inject(Translator) protected readonly translator!: Translator;

  registerFunctions(registry: RegistrySink<FunctionDescriptor>): void {
    registry.add({
      id: 'hello.greet',
      version: '1',
      verbose_name: { de: 'Grüßen', en: 'Greet' },
      doc: {
        de: 'Schreibt count Grüße an name, in der Sprache dessen, der das Schaltpult ausführt.',
        en: 'Writes count greetings to name, in the language of whoever runs the switchboard.',
      },
      inputs: [
        { name: 'name', content_type: 'string' },
        { name: 'count', content_type: 'int', is_optional: true, default_value: { value: 1 } },
      ],
      outputs: [{ name: 'greetings', content_type: 'string' }],
      run: async (inputs, ctx) => {
        const name = paramOf(inputs, 'name');
        const count = paramOf(inputs, 'count', 1);
        if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > GREET_MAX)
          throw ApiError.badRequest('count_range', 'hello:errors.count_range', { max: GREET_MAX });
        const greetings: FrameItems = [];
        for (let i = 0; i < count; i++) {
          greetings.push({ value: this.translator.translate(ctx.lang, 'hello:greet.text', { name }) });
          ctx.progress((i + 1) / count);
          if (i % 100 === 99) await yieldToLoop(ctx); // lets an abort in
        }
        ctx.log(`greeted ${String(name)} ${count} times`);
        return { greetings };
      },
    });
  }
}
// #endregion greet-function
