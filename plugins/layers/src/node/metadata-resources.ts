import { ApiError, type ResourceDefinition, type ResourceRequest } from '@werkbank/sdk/node';
import { METADATA_DATATYPES } from '../common/metadata';
import { ISO_TARGETS } from '../common/metadata-iso';

const superuserOnly = {
  canCreate: (req: ResourceRequest) => req.user.isSuperuser,
  checkWrite: (_row: unknown, req: ResourceRequest) => (req.user.isSuperuser ? undefined : 'layers:metadata.errors.admin_only'),
};

/** `/api/v1/metadatagroup/` (spec 000 §7): sections of the metadata editor; administrators write them. */
export const metadataGroupResource: ResourceDefinition = {
  id: 'layers.metadatagroup',
  kind: 'metadatagroup',
  table: 'layers_metadatagroup',
  component: 'metadata',
  label: { de: 'die Metadatengruppe', en: 'metadata group' },
  defaultOrder: 'position',
  description: 'Metadata groups: the sections the metadata editor shows attribute types in.',
  fields: {
    name: { type: 'string', required: true, maxLength: 200, search: true, order: true },
    position: { type: 'int', default: 0, order: true },
  },
  hooks: superuserOnly,
};

/** `/api/v1/metadataattributetype/` (spec 001 §3.3): what metadata a layer or depot carries. */
export const metadataAttributeTypeResource: ResourceDefinition = {
  id: 'layers.metadataattributetype',
  kind: 'metadataattributetype',
  table: 'layers_metadataattributetype',
  component: 'metadata',
  label: { de: 'den Metadatentyp', en: 'metadata attribute type' },
  defaultOrder: 'position',
  description: 'Metadata attribute types: display_name, description, group, display, datatype (text, select, date), options.',
  fields: {
    display_name: { type: 'string', required: true, maxLength: 200, search: true, order: true },
    description: { type: 'text', default: '' },
    group: { type: 'ref', column: 'group_id', refKind: 'metadatagroup', nullable: true, filter: true },
    display: { type: 'bool', default: true },
    datatype: { type: 'string', default: 'text', enum: METADATA_DATATYPES, filter: true },
    options: { type: 'json', default: [] },
    iso: { type: 'string', default: '', enum: ['', ...ISO_TARGETS] },
    position: { type: 'int', default: 0, order: true },
  },
  hooks: {
    ...superuserOnly,
    beforeCreate(values) {
      checkOptions(values);
    },
    beforeUpdate(_row, changes) {
      checkOptions(changes);
    },
  },
};

function checkOptions(values: Record<string, unknown>): void {
  if (!('options' in values)) return;
  const v = typeof values.options === 'string' ? (JSON.parse(values.options) as unknown) : values.options;
  if (!Array.isArray(v) || !v.every((o) => typeof o === 'string'))
    throw ApiError.badRequest('invalid_field', 'layers:metadata.errors.options', {}, 'options');
}
