import { FormGroup, HTMLSelect } from '@werkbank/sdk/ui';
import { useT, type DatumEditorProps } from '@werkbank/sdk/browser';
import {
  REST_OBJECT_ROOT,
  REST_UPDATE_INTERVAL,
  STA_BATCH_SIZE,
  STA_BATCH_SIZE_MAX,
  STA_VERSION,
} from '../common/live-dataset-defaults';
import {
  fieldsOf,
  LinesField,
  TextField,
  useFieldId,
  WholeNumberField,
  withField,
  type LiveFieldProps,
} from './live-dataset-fields';

/** The props every field of one editor shares: its datum's fields, read-only state and onChange. */
function shared(prefix: string, { value, readOnly, onChange }: DatumEditorProps): Omit<LiveFieldProps, 'name'> {
  return { prefix, fields: fieldsOf(value), readOnly, onChange };
}

/**
 * The version select (spec 002 §5 "Sensor things version"): only v1.1 is offered; another version a
 * datum already holds is shown, marked as not supported, so the author sees why the import refuses it.
 */
function VersionField(props: Omit<LiveFieldProps, 'name'>) {
  const t = useT('geodata');
  const id = useFieldId();
  // Stored as sta_version; frames written before hold it as version.
  const held = props.fields.sta_version ?? props.fields.version;
  const current = typeof held === 'string' && held ? held : STA_VERSION;
  const options = [{ value: STA_VERSION, label: STA_VERSION }];
  if (current !== STA_VERSION)
    options.push({ value: current, label: String(t('live.sta.version_unsupported', { version: current })) });
  return (
    <FormGroup label={String(t('live.sta.version.label'))} labelFor={id} helperText={String(t('live.sta.version.help'))}>
      <HTMLSelect
        id={id}
        data-testid="live-version"
        disabled={props.readOnly}
        value={current}
        options={options}
        onChange={(e) =>
          props.onChange(withField(withField(props.fields, 'version', undefined), 'sta_version', e.currentTarget.value))
        }
      />
    </FormGroup>
  );
}

/**
 * The editor of `sta-livedataset` (spec 002 §3 "Live dataset settings", sensor things service).
 * Receives and hands back all fields of the datum, as the generic editor does.
 */
export function StaLiveDatasetEditor(props: DatumEditorProps) {
  const p = shared('live.sta', props);
  return (
    <div data-testid="datum-editor-sta-livedataset">
      <TextField {...p} name="origin" />
      <VersionField {...p} />
      <TextField {...p} name="thing_filter" monospace />
      <TextField {...p} name="datastream_filter" monospace />
      <TextField {...p} name="mqtt_uri" />
      <WholeNumberField
        {...p}
        name="batch_size"
        min={1}
        max={STA_BATCH_SIZE_MAX}
        fallback={STA_BATCH_SIZE}
        help={{ fallback: STA_BATCH_SIZE, max: STA_BATCH_SIZE_MAX }}
      />
    </div>
  );
}

/** The editor of `rest-livedataset` (spec 002 §3 "Live dataset settings", REST service). */
export function RestLiveDatasetEditor(props: DatumEditorProps) {
  const p = shared('live.rest', props);
  return (
    <div data-testid="datum-editor-rest-livedataset">
      <TextField {...p} name="origin" />
      <WholeNumberField
        {...p}
        name="update_interval"
        min={1}
        fallback={REST_UPDATE_INTERVAL}
        help={{ fallback: REST_UPDATE_INTERVAL }}
      />
      <TextField {...p} name="jp_obj_root" monospace placeholder={REST_OBJECT_ROOT} help={{ fallback: REST_OBJECT_ROOT }} />
      <TextField {...p} name="jp_lat" monospace />
      <TextField {...p} name="jp_lon" monospace />
      <LinesField {...p} name="properties" />
    </div>
  );
}
