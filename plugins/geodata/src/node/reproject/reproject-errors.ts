import { failureOf } from '../failure';
import en from './i18n/en.json' with { type: 'json' };

/** The reasons the reproject functions fail with: one per message, so that the type checker refuses a reason without one. */
export type ReprojectFailure = keyof typeof en.errors;

/** A failure of a reproject function, with its reason in German and English (`geodata-reproject:errors.*`). */
export const failure = failureOf<ReprojectFailure>('geodata-reproject');
