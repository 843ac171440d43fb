// #region datum-editor
import { FormGroup, InputGroup, NumericInput, TextArea } from '@werkbank/sdk/ui';
import { useT, type DatumEditorContribution, type DatumEditorProps } from '@werkbank/sdk/browser';
import { GREETING_CARD, type GreetingCard } from '../common/greeting-card';

/**
 * The editor of a greeting card, wherever a datum of the type is edited (a frame's table, a depot's
 * datum dialog). A type with several fields gets the datum's fields as `value`; a change hands back
 * all of them. `readOnly` shows the card without changing it.
 */
export function GreetingCardEditor({ value, readOnly, onChange }: DatumEditorProps) {
  const t = useT('hello');
  const card = (value ?? {}) as GreetingCard;
  const change = (patch: Partial<GreetingCard>) => onChange({ ...card, ...patch });
  return (
    <div data-testid="greeting-card-editor">
      <FormGroup label={t('card.to')} labelFor="greeting-card-to">
        <InputGroup id="greeting-card-to" readOnly={readOnly} value={card.to ?? ''} onValueChange={(to) => change({ to })} />
      </FormGroup>
      <FormGroup label={t('card.text')} labelFor="greeting-card-text">
        <TextArea
          id="greeting-card-text"
          fill
          readOnly={readOnly}
          value={card.text ?? ''}
          onChange={(e) => change({ text: e.target.value })}
        />
      </FormGroup>
      <FormGroup label={t('card.stamps')} labelFor="greeting-card-stamps">
        <NumericInput
          id="greeting-card-stamps"
          disabled={readOnly}
          min={0}
          max={10}
          value={card.stamps ?? 0}
          onValueChange={(stamps) => Number.isInteger(stamps) && change({ stamps })}
        />
      </FormGroup>
    </div>
  );
}

export const helloDatumEditors: DatumEditorContribution = {
  registerDatumEditors: (registry) =>
    registry.add({ id: 'hello.greeting-card-editor', contentType: GREETING_CARD, component: GreetingCardEditor }),
};
// #endregion datum-editor
