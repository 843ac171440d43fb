import { useState, useNavigate } from '@werkbank/sdk/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@werkbank/sdk/ui';
import {
  ApiClient,
  ConfigStore,
  NavigationStore,
  observer,
  useService,
  useT,
  type EditorProps,
  type TagRef,
} from '@werkbank/sdk/browser';
import { CREATE_SWITCHBOARD_PATH, switchboardRoute } from '../../common/switchboard-types';
import { SWITCHBOARD_FOLDER_KEY } from './switchboard-list-ids';
import { TagPicker } from './tag-picker';

interface Created {
  resource_uri: string;
  switchboard_id: number;
  name: string;
}

/**
 * The new-switchboard form (spec 002 §2: "a simple name-and-tags form if it is new"): creates it
 * with POST /api/v2/switchboard/create/?name=&folder_uri=&tags= (the POST form of spec 000 §7's GET) in the folder the list
 * shows, then opens its canvas. A refusal stays in the dialog.
 */
export const NewSwitchboardForm = observer(function NewSwitchboardForm({ onClose }: EditorProps) {
  const api = useService(ApiClient);
  const nav = useService(NavigationStore);
  const config = useService(ConfigStore);
  const navigate = useNavigate();
  const t = useT('sb-lists');
  const [name, setName] = useState('');
  const [tags, setTags] = useState<TagRef[]>([]);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const folder = nav.get<string | null>(SWITCHBOARD_FOLDER_KEY, null);
  const create = async () => {
    if (!name.trim() || saving) return;
    setSaving(true);
    setError(undefined);
    try {
      const created = await api.post<Created>(CREATE_SWITCHBOARD_PATH, undefined, {
        query: {
          name: name.trim(),
          folder_uri: folder ?? undefined,
          tags: config.isEnabled('tags') && tags.length ? tags.map((tag) => tag.id).join(',') : undefined,
        },
      });
      onClose(true);
      navigate(switchboardRoute(created.switchboard_id));
    } catch (e) {
      setError((e as Error).message);
      setSaving(false);
    }
  };
  return (
    <Dialog isOpen icon="flow-branch" title={t('switchboard.new')} onClose={() => onClose(false)}>
      <DialogBody>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <FormGroup label={t('switchboard.name')} labelFor="new-switchboard-name">
            <InputGroup id="new-switchboard-name" autoFocus value={name} onValueChange={setName} />
          </FormGroup>
        </form>
        {config.isEnabled('tags') && (
          <FormGroup label={t('switchboard.tags')}>
            <TagPicker value={tags} onChange={setTags} />
          </FormGroup>
        )}
        {error && (
          <Callout intent="danger" data-testid="new-switchboard-error">
            {error}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('core:common.cancel')} onClick={() => onClose(false)} />
            <Button
              intent="primary"
              text={t('core:common.create')}
              loading={saving}
              disabled={!name.trim()}
              data-testid="new-switchboard-create"
              onClick={() => void create()}
            />
          </>
        }
      />
    </Dialog>
  );
});
