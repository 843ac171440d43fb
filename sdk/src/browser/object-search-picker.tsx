import { useEffect, useState } from 'react';
import { Button, ButtonGroup, Callout, Checkbox, FormGroup, InputGroup } from '@blueprintjs/core';
import { ApiClient, useService, useT } from '@werkbank/kernel/browser';

/** A search of the picker waits this long after the last key (spec 002 §5: 200 ms). */
export const PICKER_DEBOUNCE_MS = 200;

export interface PickedObject {
  id: number;
  name: string;
  resource_uri: string;
  [key: string]: unknown;
}

export interface ObjectSearchPickerProps {
  /** The list address searched (`q`, ordered by name, 10 hits). */
  path: string;
  /** Id of the search field (for its label). */
  inputId: string;
  /** The field's label; default "Search". */
  label?: string;
  /** Shown when a search finds nothing; default "Nothing was found for your search." */
  emptyText?: string;
  /** A hit's label; default its name. */
  describe?(hit: PickedObject): string;
  onAdd(hit: PickedObject): void;
  onCancel(): void;
  testId?: string;
}

/**
 * Adds an object found by a search (the layer tree's Add Layer, a portal's views and layers): a search
 * box whose hits (debounced) can be ticked, one at a time, with Add and Cancel.
 */
export function ObjectSearchPicker(props: ObjectSearchPickerProps) {
  const api = useService(ApiClient);
  const t = useT();
  const [text, setText] = useState('');
  const [hits, setHits] = useState<PickedObject[]>();
  const [chosen, setChosen] = useState<PickedObject>();
  useEffect(() => {
    const timer = setTimeout(() => {
      api.get<{ objects: PickedObject[] }>(props.path, { query: { q: text || undefined, limit: 10, order_by: 'name' } }).then(
        (r) => setHits(r.objects),
        () => setHits([]),
      );
    }, PICKER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [api, props.path, text]);
  const label = props.label ?? String(t('core:picker.search'));
  return (
    <div className="wb-object-picker" data-testid={props.testId}>
      <FormGroup label={label} labelFor={props.inputId}>
        <InputGroup id={props.inputId} leftIcon="search" autoFocus value={text} onValueChange={setText} />
      </FormGroup>
      {hits && !hits.length && <Callout>{props.emptyText ?? t('core:picker.none_found')}</Callout>}
      {!!hits?.length && (
        <ul className="wb-object-picker-hits" aria-label={label}>
          {hits.map((h) => (
            <li key={h.id}>
              <Checkbox
                checked={chosen?.id === h.id}
                label={props.describe ? props.describe(h) : h.name}
                onChange={() => setChosen(chosen?.id === h.id ? undefined : h)}
              />
            </li>
          ))}
        </ul>
      )}
      <ButtonGroup>
        <Button
          intent="primary"
          text={t('core:picker.add')}
          disabled={!chosen}
          data-testid={props.testId ? `${props.testId}-confirm` : undefined}
          onClick={() => chosen && props.onAdd(chosen)}
        />
        <Button text={t('core:picker.cancel')} onClick={props.onCancel} />
      </ButtonGroup>
    </div>
  );
}
