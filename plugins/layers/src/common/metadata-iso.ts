/** The ISO 19139 elements a metadata attribute type can fill in `download.xml` (decision 0066). */
export const ISO_TARGETS = ['title', 'abstract', 'organisation', 'email', 'lineage', 'keyword', 'reference_system'] as const;
export type IsoTarget = (typeof ISO_TARGETS)[number];
