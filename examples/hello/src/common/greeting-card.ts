// #region datum-type
import type { DatumTypeContribution, DatumTypeDescriptor } from '@werkbank/sdk';

/** The type name of a greeting card: the content type of frames, depots and ports that hold cards. */
export const GREETING_CARD = 'hello.greeting_card';

/** A greeting card's fields, as the schema below allows them. */
export interface GreetingCard {
  to: string;
  text: string;
  /** Stamps on the card, 0..10. */
  stamps?: number;
}

/**
 * A datum type: the server validates every saved card against `schema` (JSON Schema 2020-12, the
 * datum's own fields without its envelope), a new card starts as `template`, `repr` is its text in
 * lists and searches. Contributed from both modules, so both sides know the type.
 */
export const greetingCardType: DatumTypeDescriptor = {
  id: 'hello.greeting-card',
  name: GREETING_CARD,
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['to', 'text'],
    properties: {
      to: { type: 'string', minLength: 1, maxLength: 200 },
      text: { type: 'string', maxLength: 2000 },
      stamps: { type: 'integer', minimum: 0, maximum: 10 },
    },
  },
  template: { to: '', text: '', stamps: 1 },
  repr: (fields) => `${String(fields.to)}: ${String(fields.text)}`,
};

export const helloDatumTypes: DatumTypeContribution = {
  registerDatumTypes: (registry) => registry.add(greetingCardType),
};
// #endregion datum-type
