import { useEffect, useState, type ReactNode } from '@werkbank/sdk/react';
import { FormGroup, InputGroup, NumericInput, TextArea } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';

let nextId = 0;
/** A stable element id for a field's label (the SDK's React exports no useId). */
export const useFieldId = (): string => useState(() => `geodata-live-field-${++nextId}`)[0];

/** A live dataset's fields, as the datum editors receive and hand them back. */
export type LiveFields = Record<string, unknown>;

/** The fields of an editor's value: the object itself, or none when the value is no object. */
export const fieldsOf = (value: unknown): LiveFields =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as LiveFields) : {};

/** What every field of a live dataset editor receives; `prefix` is its translation key (`live.sta`). */
export interface LiveFieldProps {
  prefix: string;
  name: string;
  fields: LiveFields;
  readOnly?: boolean;
  /** Called with all fields, `name` changed (or left out when emptied, so the default applies). */
  onChange(fields: LiveFields): void;
  /** Interpolated into the help text (`{{fallback}}`, `{{max}}`). */
  help?: Record<string, unknown>;
}

/** The label and help text of field `name`, in the plugin's namespace. */
function Field({ prefix, name, help, id, children }: LiveFieldProps & { id: string; children: ReactNode }) {
  const t = useT('geodata');
  return (
    <FormGroup label={String(t(`${prefix}.${name}.label`))} labelFor={id} helperText={String(t(`${prefix}.${name}.help`, help))}>
      {children}
    </FormGroup>
  );
}

export const withField = (fields: LiveFields, name: string, value: unknown): LiveFields => {
  const { [name]: _old, ...rest } = fields;
  return value === undefined ? rest : { ...rest, [name]: value };
};

/** A text field; `placeholder` shows the default that applies when it is empty. */
export function TextField(props: LiveFieldProps & { placeholder?: string; monospace?: boolean }) {
  const id = useFieldId();
  const value = props.fields[props.name];
  return (
    <Field {...props} id={id}>
      <InputGroup
        id={id}
        data-testid={`live-${props.name}`}
        disabled={props.readOnly}
        placeholder={props.placeholder}
        style={props.monospace ? { fontFamily: 'monospace' } : undefined}
        value={typeof value === 'string' ? value : ''}
        onValueChange={(text) => props.onChange(withField(props.fields, props.name, text))}
      />
    </Field>
  );
}

/** A whole number from `min` to `max`; emptied, the field is left out and `fallback` applies. */
export function WholeNumberField(props: LiveFieldProps & { min: number; max?: number; fallback: number }) {
  const id = useFieldId();
  const value = props.fields[props.name];
  return (
    <Field {...props} id={id}>
      <NumericInput
        id={id}
        // Blueprint points the stepper buttons' aria-controls at its own id, not at `id` (an
        // invalid ARIA reference axe refuses); the arrow keys still step the value.
        buttonPosition="none"
        data-testid={`live-${props.name}`}
        fill
        disabled={props.readOnly}
        min={props.min}
        max={props.max}
        minorStepSize={null}
        clampValueOnBlur
        placeholder={String(props.fallback)}
        value={typeof value === 'number' ? value : ''}
        onValueChange={(n, text) => {
          if (text.trim() === '') props.onChange(withField(props.fields, props.name, undefined));
          else if (Number.isInteger(n) && n >= props.min && (props.max === undefined || n <= props.max))
            props.onChange(withField(props.fields, props.name, n));
        }}
      />
    </Field>
  );
}

const linesOf = (list: unknown): string[] => (Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []);
const listOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** A list of strings, one per line; blank lines are dropped, the text keeps them while typing. */
export function LinesField(props: LiveFieldProps) {
  const id = useFieldId();
  const list = linesOf(props.fields[props.name]);
  const [text, setText] = useState(() => list.join('\n'));
  const joined = list.join('\n');
  useEffect(() => setText((current) => (listOf(current).join('\n') === joined ? current : joined)), [joined]);
  return (
    <Field {...props} id={id}>
      <TextArea
        id={id}
        data-testid={`live-${props.name}`}
        fill
        rows={4}
        disabled={props.readOnly}
        style={{ fontFamily: 'monospace' }}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          props.onChange(withField(props.fields, props.name, listOf(e.target.value)));
        }}
      />
    </Field>
  );
}
