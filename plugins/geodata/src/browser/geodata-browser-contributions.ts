import type { DatumEditorContribution, TranslationContribution } from '@werkbank/sdk/browser';
import { RestLiveDatasetEditor, StaLiveDatasetEditor } from './live-dataset-editors';
import en from './i18n/en.json';
import de from './i18n/de.json';

/** The editors of the live dataset types (spec 002 §2 "Datum editor by content type", decision 0021). */
export const liveDatasetEditors: DatumEditorContribution = {
  registerDatumEditors(registry) {
    registry.add({ id: 'geodata.sta-livedataset-editor', contentType: 'sta-livedataset', component: StaLiveDatasetEditor });
    registry.add({ id: 'geodata.rest-livedataset-editor', contentType: 'rest-livedataset', component: RestLiveDatasetEditor });
  },
};

export const geodataTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'geodata.translations', namespace: 'geodata', de, en }),
};
