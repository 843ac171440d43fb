import { failureOf } from '../failure';
import en from './i18n/en.json' with { type: 'json' };

/** The reasons a service import fails with: one per message, so that the type checker refuses a reason without one. */
export type ServicesFailure = keyof typeof en.errors;

/** A failure of a service import, with its reason in German and English (`geodata-services:errors.*`). */
export const servicesFailure = failureOf<ServicesFailure>('geodata-services');
