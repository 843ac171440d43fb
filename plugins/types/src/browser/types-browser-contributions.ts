import {
  GENERIC_CONTENT_TYPE,
  type DatumEditorContribution,
  type DatumTypeContribution,
  type TranslationContribution,
} from '@werkbank/sdk/browser';
import { coreTypeDescriptors } from '../common/core-types';
import { BoolEditor, ColorEditor, GenericJsonEditor, NumberEditor, StringEditor } from './datum-editors';
import en from '../common/i18n/en.json';
import de from '../common/i18n/de.json';

export const coreTypes: DatumTypeContribution = {
  registerDatumTypes: (registry) => coreTypeDescriptors().forEach((t) => registry.add(t)),
};

/** Editors by content type; `int` and `float` inherit `number`, `label` inherits `string`. */
export const coreDatumEditors: DatumEditorContribution = {
  registerDatumEditors(registry) {
    registry.add({ id: 'types.generic-editor', contentType: GENERIC_CONTENT_TYPE, component: GenericJsonEditor });
    registry.add({ id: 'types.string-editor', contentType: 'string', component: StringEditor });
    registry.add({ id: 'types.number-editor', contentType: 'number', component: NumberEditor });
    registry.add({ id: 'types.bool-editor', contentType: 'bool', component: BoolEditor });
    registry.add({ id: 'types.color-editor', contentType: 'color', component: ColorEditor });
  },
};

export const typesTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'types.translations', namespace: 'types', de, en }),
};
