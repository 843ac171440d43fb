/**
 * Defaults of the live dataset types (spec 002 §9), shared by the node types' templates and the
 * browser's editors, so both show and use the same values.
 */

/** The only SensorThings API version the import speaks (spec 002 §5 "Sensor things version"). */
export const STA_VERSION = 'v1.1';
/** Things per page when the dataset names no batch size (spec 002 §9). */
export const STA_BATCH_SIZE = 100;
/** The largest batch size the `sta-livedataset` schema accepts. */
export const STA_BATCH_SIZE_MAX = 10_000;
/** Seconds between two polls of a REST dataset when it names no interval (spec 002 §9). */
export const REST_UPDATE_INTERVAL = 60;
/** The JsonPath that selects the objects of a REST answer when the dataset names none (spec 002 §9). */
export const REST_OBJECT_ROOT = '$[*]';
