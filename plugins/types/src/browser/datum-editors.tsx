import { useEffect, useState } from '@werkbank/sdk/react';
import { Callout, InputGroup, NumericInput, Switch, TextArea } from '@werkbank/sdk/ui';
import { useT, type DatumEditorProps } from '@werkbank/sdk/browser';

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The fallback for every type without its own editor: the value as JSON text. */
export function GenericJsonEditor({ value, readOnly, onChange }: DatumEditorProps) {
  const t = useT('types');
  const [text, setText] = useState(() => JSON.stringify(value ?? null, null, 2));
  const [error, setError] = useState<string>();
  useEffect(() => setText(JSON.stringify(value ?? null, null, 2)), [value]);
  return (
    <div data-testid="datum-editor-generic">
      <TextArea
        fill
        rows={6}
        readOnly={readOnly}
        value={text}
        style={{ fontFamily: 'monospace' }}
        onChange={(e) => {
          setText(e.target.value);
          try {
            onChange(JSON.parse(e.target.value));
            setError(undefined);
          } catch (err) {
            setError(String(t('invalid_json', { detail: (err as Error).message })));
          }
        }}
      />
      {error && <Callout intent="danger">{error}</Callout>}
    </div>
  );
}

export function StringEditor({ value, readOnly, onChange }: DatumEditorProps) {
  return (
    <InputGroup data-testid="datum-editor-string" readOnly={readOnly} value={String(value ?? '')} onValueChange={onChange} />
  );
}

/** Numbers; `int` (through its base chain) rounds to whole numbers. */
export function NumberEditor({ contentType, value, readOnly, onChange }: DatumEditorProps) {
  const whole = contentType.replace(/^\/api\/v1\/type\//, '').replace(/\/$/, '') === 'int';
  return (
    <NumericInput
      data-testid="datum-editor-number"
      fill
      disabled={readOnly}
      value={typeof value === 'number' ? value : ''}
      minorStepSize={whole ? null : 0.001}
      stepSize={1}
      onValueChange={(n) => Number.isFinite(n) && onChange(whole ? Math.round(n) : n)}
    />
  );
}

/** spec 001 §2.1 "Boolean switch editor (On/Off)". */
export function BoolEditor({ value, readOnly, onChange }: DatumEditorProps) {
  const t = useT('types');
  return (
    <Switch
      data-testid="datum-editor-bool"
      disabled={readOnly}
      checked={value === true}
      label={String(t(value === true ? 'on' : 'off'))}
      onChange={(e) => onChange(e.currentTarget.checked)}
    />
  );
}

/** spec 001 §2.1 "Colour editor with a hex value". */
export function ColorEditor({ value, readOnly, onChange }: DatumEditorProps) {
  const t = useT('types');
  const hex = typeof value === 'string' ? value : '';
  const ok = HEX.test(hex);
  return (
    <div className="wb-toolbar" data-testid="datum-editor-color">
      <input
        type="color"
        aria-label={String(t('colour'))}
        disabled={readOnly}
        value={ok ? hex : '#000000'}
        onChange={(e) => onChange(e.target.value)}
      />
      <InputGroup
        aria-label={String(t('hex'))}
        readOnly={readOnly}
        intent={ok ? 'none' : 'danger'}
        value={hex}
        onValueChange={onChange}
      />
    </div>
  );
}
