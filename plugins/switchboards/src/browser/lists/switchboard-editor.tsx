import type { EditorProps } from '@werkbank/sdk/browser';
import { SWITCHBOARD_PATH } from '../../common/switchboard-types';
import { NewSwitchboardForm } from './new-switchboard-form';
import { SwitchboardSettingsEditor } from './switchboard-settings-editor';

/**
 * The editor for /api/v1/switchboard/ addresses (spec 002 §2): the list address itself means a new
 * switchboard (the name-and-tags form), a switchboard's address its settings editor.
 */
export function SwitchboardEditor(props: EditorProps) {
  return props.address.split('?')[0] === SWITCHBOARD_PATH ? (
    <NewSwitchboardForm {...props} />
  ) : (
    <SwitchboardSettingsEditor {...props} />
  );
}
