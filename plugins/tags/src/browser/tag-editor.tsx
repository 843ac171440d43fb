import { useEffect, useState } from '@werkbank/sdk/react';
import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  Icon,
  InputGroup,
  Radio,
  RadioGroup,
} from '@werkbank/sdk/ui';
import { observer } from '@werkbank/sdk/react';
import {
  ApiClient,
  ConfigStore,
  DatumEditorHost,
  NotificationService,
  useService,
  useT,
  type EditorProps,
} from '@werkbank/sdk/browser';
import { DEFAULT_TAG_COLOR, HEX_COLOR, TAG_ICONS, TAGS_PATH, tagChangeRefusal, type Tag } from '../common/tag-rules';

/**
 * The tag editor (spec 002 §2 "Other editors": name, colour and icon). A new tag is created at the
 * list address; superusers may choose the system intent. Locked tags open read-only with the reason.
 */
export const TagEditor = observer(function TagEditor({ address, onClose }: EditorProps) {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const notifications = useService(NotificationService);
  const t = useT('tags');
  const isNew = address === TAGS_PATH;
  const [tag, setTag] = useState<Partial<Tag>>({ name: '', color: DEFAULT_TAG_COLOR, icon: 'tag', intent: 'user' });
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!isNew) api.get<Tag>(address).then(setTag, (e: Error) => setError(e.message));
  }, [api, address, isNew]);

  const refusal = isNew ? undefined : tagChangeRefusal(tag.intent ?? 'user', config.isSuperuser);
  const locked = !!refusal;
  const colorOk = HEX_COLOR.test(tag.color ?? '');
  const save = async () => {
    setSaving(true);
    setError(undefined);
    try {
      const body = { name: tag.name, color: tag.color, icon: tag.icon, ...(isNew ? { intent: tag.intent } : {}) };
      if (isNew) await api.post(TAGS_PATH, body);
      else await api.patch(address, body);
      notifications.success(String(t('core:common.saved')));
      onClose(true);
    } catch (e) {
      setError((e as Error).message);
      setSaving(false);
    }
  };

  return (
    <Dialog isOpen onClose={() => onClose(false)} title={t(isNew ? 'editor.title_new' : 'editor.title_edit')} icon="tag">
      <DialogBody>
        {locked && (
          <Callout intent="warning" className="wb-gap">
            {t(refusal === 'tags:errors.system_locked' ? 'list.locked_system' : 'list.locked_user')}
          </Callout>
        )}
        <FormGroup label={t('editor.name')} labelFor="tag-name">
          <InputGroup
            id="tag-name"
            autoFocus
            disabled={locked}
            value={tag.name ?? ''}
            onValueChange={(name) => setTag({ ...tag, name })}
          />
        </FormGroup>
        <FormGroup
          label={t('editor.colour')}
          intent={colorOk ? 'none' : 'danger'}
          helperText={colorOk ? undefined : t('errors.color')}
        >
          <DatumEditorHost
            contentType="color"
            readOnly={locked}
            value={tag.color}
            onChange={(color) => setTag({ ...tag, color: String(color) })}
          />
        </FormGroup>
        <FormGroup label={t('editor.icon')} labelFor="tag-icon">
          <div className="wb-toolbar">
            <Icon icon={(tag.icon || 'tag') as never} color={tag.color} />
            <HTMLSelect
              id="tag-icon"
              disabled={locked}
              value={tag.icon}
              options={TAG_ICONS.map((icon) => ({ value: icon, label: String(t(`icons.${icon}`)) }))}
              onChange={(e) => setTag({ ...tag, icon: e.target.value })}
            />
          </div>
        </FormGroup>
        {isNew && config.isSuperuser && (
          <RadioGroup
            label={t('editor.intent')}
            inline
            selectedValue={tag.intent}
            onChange={(e) => setTag({ ...tag, intent: e.currentTarget.value as Tag['intent'] })}
          >
            <Radio label={String(t('editor.user'))} value="user" />
            <Radio label={String(t('editor.system'))} value="system" />
          </RadioGroup>
        )}
        {error && <Callout intent="danger">{error}</Callout>}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={() => onClose(false)} text={t('core:common.cancel')} />
            {!locked && (
              <Button
                intent="primary"
                loading={saving}
                disabled={!tag.name?.trim() || !colorOk}
                onClick={save}
                text={t('core:common.save')}
                data-testid="tag-save"
              />
            )}
          </>
        }
      />
    </Dialog>
  );
});
