import { useEffect, useState, type ReactNode } from '@werkbank/sdk/react';
import { FormGroup, HTMLSelect, InputGroup, Switch } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import type { LayerAttribute } from '../common/layers-api';
import {
  BILLBOARD_ICONS,
  CONTOUR_TYPES,
  DASH_PATTERNS,
  dashPatternId,
  MARKS,
  normalColour,
  parseInteger,
  parseNumber,
  SYMBOL_TYPES,
  withHalo,
  type StyleSymbol,
} from '../common/style-model';

/** A text field holding a number: shows what is typed, hands on the parsed value (spec 001 §5.3). */
export function NumberField(props: {
  id: string;
  label: string;
  value: number | null | undefined;
  parse(text: string): number | null;
  onChange(v: number | null): void;
  disabled: boolean;
  /** Shown as value × factor (percentages: 100). */
  factor?: number;
  helper?: ReactNode;
}) {
  const factor = props.factor ?? 1;
  const shown = (v: number | null | undefined) =>
    v === null || v === undefined ? '' : String(Math.round(v * factor * 1000) / 1000);
  const [text, setText] = useState(shown(props.value));
  useEffect(() => {
    const parsed = props.parse(text);
    const current = parsed === null ? null : parsed / factor;
    if ((props.value ?? null) !== current) setText(shown(props.value));
  }, [props.value]);
  return (
    <FormGroup label={props.label} labelFor={props.id} helperText={props.helper}>
      <InputGroup
        id={props.id}
        inputMode="decimal"
        disabled={props.disabled}
        value={text}
        onValueChange={(t) => {
          setText(t);
          const v = props.parse(t);
          props.onChange(v === null ? null : v / factor);
        }}
      />
    </FormGroup>
  );
}

export function ColourField(props: {
  id: string;
  label: string;
  value: string | undefined;
  fallback: string;
  disabled: boolean;
  onChange(v: string): void;
}) {
  return (
    <FormGroup label={props.label} labelFor={props.id}>
      <input
        id={props.id}
        type="color"
        className="wb-style-colour"
        disabled={props.disabled}
        value={normalColour(props.value) || props.fallback}
        onChange={(e) => props.onChange(normalColour(e.target.value) ?? props.fallback)}
      />
    </FormGroup>
  );
}

/** The Symbol tab's fields (also the Hover tab's, with the contour type). */
export function SymbolFields({
  symbol,
  prefix,
  hover,
  disabled,
  onChange,
}: {
  symbol: StyleSymbol;
  prefix: string;
  hover: boolean;
  disabled: boolean;
  onChange(s: StyleSymbol): void;
}) {
  const t = useT('layers');
  const set = (p: Partial<StyleSymbol>) => onChange({ ...symbol, ...p });
  const id = (k: string) => `${prefix}-${k}`;
  return (
    <div className="wb-style-fields">
      <FormGroup label={t('style.symbol_type')} labelFor={id('type')}>
        <HTMLSelect
          id={id('type')}
          disabled={disabled}
          value={symbol.symbol_type}
          onChange={(e) => {
            const type = e.target.value as StyleSymbol['symbol_type'];
            const next: StyleSymbol = { ...symbol, symbol_type: type };
            if (type === 'billboard') next.graphic = BILLBOARD_ICONS[0];
            else if (type === 'graphic') next.graphic = MARKS[0];
            else delete next.graphic;
            onChange(next);
          }}
        >
          {SYMBOL_TYPES.map((k) => (
            <option key={k} value={k}>
              {t(`style.type_${k}`)}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      {symbol.symbol_type === 'graphic' && (
        <>
          <FormGroup label={t('style.graphic')} labelFor={id('graphic')}>
            <HTMLSelect
              id={id('graphic')}
              disabled={disabled}
              value={symbol.graphic ?? 'circle'}
              onChange={(e) => set({ graphic: e.target.value })}
            >
              {MARKS.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('style.graphic_url')} labelFor={id('graphic-url')}>
            <InputGroup
              id={id('graphic-url')}
              disabled={disabled}
              value={symbol.graphic_url ?? ''}
              onValueChange={(v) => set({ graphic_url: v || undefined })}
            />
          </FormGroup>
        </>
      )}
      {symbol.symbol_type === 'billboard' && (
        <FormGroup label={t('style.billboard_icon')} labelFor={id('icon')}>
          <HTMLSelect
            id={id('icon')}
            disabled={disabled}
            value={symbol.graphic ?? 'marker'}
            onChange={(e) => set({ graphic: e.target.value })}
          >
            {BILLBOARD_ICONS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
      )}
      {symbol.symbol_type !== 'style' && (
        <>
          <NumberField
            id={id('graphic-scale')}
            label={t('style.graphic_scale')}
            factor={100}
            disabled={disabled}
            value={symbol.graphic_scale}
            parse={parseNumber}
            onChange={(v) => set({ graphic_scale: v })}
          />
          <NumberField
            id={id('graphic-opacity')}
            label={t('style.graphic_opacity')}
            factor={100}
            disabled={disabled}
            value={symbol.graphic_opacity}
            parse={parseNumber}
            onChange={(v) => set({ graphic_opacity: v })}
          />
        </>
      )}
      <ColourField
        id={id('fill')}
        label={t('style.fill')}
        value={symbol.fill}
        fallback="#2d72d2"
        disabled={disabled}
        onChange={(fill) => set({ fill })}
      />
      <NumberField
        id={id('fill-opacity')}
        label={t('style.fill_opacity')}
        factor={100}
        disabled={disabled}
        value={symbol.fill_opacity}
        parse={parseNumber}
        onChange={(v) => set({ fill_opacity: v })}
      />
      <ColourField
        id={id('stroke')}
        label={t('style.stroke')}
        value={symbol.stroke}
        fallback="#184a90"
        disabled={disabled}
        onChange={(stroke) => set({ stroke })}
      />
      <NumberField
        id={id('stroke-opacity')}
        label={t('style.stroke_opacity')}
        factor={100}
        disabled={disabled}
        value={symbol.stroke_opacity}
        parse={parseNumber}
        onChange={(v) => set({ stroke_opacity: v })}
      />
      <NumberField
        id={id('stroke-width')}
        label={t('style.stroke_width')}
        disabled={disabled}
        value={symbol.stroke_width}
        parse={parseNumber}
        onChange={(v) => set({ stroke_width: v })}
      />
      <FormGroup label={t('style.dash')} labelFor={id('dash')}>
        <HTMLSelect
          id={id('dash')}
          disabled={disabled}
          value={dashPatternId(symbol.stroke_dasharray) || 'none'}
          onChange={(e) => set({ stroke_dasharray: DASH_PATTERNS.find((p) => p.id === e.target.value)?.dash ?? null })}
        >
          {DASH_PATTERNS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.dash ? p.id : t('style.dash_none')}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <NumberField
        id={id('radius')}
        label={t('style.circle_radius')}
        disabled={disabled}
        value={symbol.circle_radius}
        parse={parseNumber}
        onChange={(v) => set({ circle_radius: v })}
      />
      {hover && (
        <FormGroup label={t('style.contour_type')} labelFor={id('contour')}>
          <HTMLSelect
            id={id('contour')}
            disabled={disabled}
            value={symbol.contour_type ?? 'feature'}
            onChange={(e) => set({ contour_type: e.target.value as StyleSymbol['contour_type'] })}
          >
            {CONTOUR_TYPES.map((c) => (
              <option key={c} value={c}>
                {t(`style.contour_${c}`)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
      )}
    </div>
  );
}

export function LabelFields({
  symbol,
  attributes,
  disabled,
  onChange,
}: {
  symbol: StyleSymbol;
  attributes: LayerAttribute[];
  disabled: boolean;
  onChange(s: StyleSymbol): void;
}) {
  const t = useT('layers');
  const set = (p: Partial<StyleSymbol>) => onChange({ ...symbol, ...p });
  const useBorder = !!symbol.text_halo_fill;
  return (
    <div className="wb-style-fields">
      <FormGroup label={t('style.text_label')} labelFor="style-text-label">
        <HTMLSelect
          id="style-text-label"
          disabled={disabled}
          value={symbol.text_label ?? ''}
          onChange={(e) => set({ text_label: e.target.value || undefined })}
        >
          <option value="">{t('style.text_none')}</option>
          {symbol.text_label && !attributes.some((a) => a.name === symbol.text_label) && (
            <option value={symbol.text_label}>{symbol.text_label}</option>
          )}
          {attributes.map((a) => (
            <option key={a.name} value={a.name}>
              {a.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <NumberField
        id="style-text-size"
        label={t('style.text_size')}
        disabled={disabled}
        value={symbol.text_size}
        parse={parseInteger}
        onChange={(v) => set({ text_size: v })}
      />
      <ColourField
        id="style-text-fill"
        label={t('style.text_fill')}
        value={symbol.text_fill}
        fallback="#000000"
        disabled={disabled}
        onChange={(text_fill) => set({ text_fill })}
      />
      <NumberField
        id="style-text-dx"
        label={t('style.text_dx')}
        disabled={disabled}
        value={symbol.text_dx}
        parse={parseNumber}
        onChange={(v) => set({ text_dx: v })}
      />
      <NumberField
        id="style-text-dy"
        label={t('style.text_dy')}
        disabled={disabled}
        value={symbol.text_dy}
        parse={parseNumber}
        onChange={(v) => set({ text_dy: v })}
      />
      <Switch
        id="style-use-border"
        label={String(t('style.use_border'))}
        disabled={disabled}
        checked={useBorder}
        onChange={(e) => onChange(withHalo(symbol, e.currentTarget.checked))}
      />
      {useBorder && (
        <>
          <ColourField
            id="style-halo-fill"
            label={t('style.text_halo_fill')}
            value={symbol.text_halo_fill}
            fallback="#ffffff"
            disabled={disabled}
            onChange={(text_halo_fill) => set({ text_halo_fill })}
          />
          <NumberField
            id="style-halo-radius"
            label={t('style.text_halo_radius')}
            disabled={disabled}
            value={symbol.text_halo_radius}
            parse={parseInteger}
            onChange={(v) => set({ text_halo_radius: v })}
          />
        </>
      )}
    </div>
  );
}
