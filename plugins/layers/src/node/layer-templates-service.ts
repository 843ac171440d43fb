import { ApiError, inject, injectable, type ResourceRequest } from '@werkbank/sdk/node';
import type { SwitchboardTemplate, SwitchboardTemplates } from '@werkbank/plugin-switchboards/api';
import { LAYER_TEMPLATE_TYPE, readLayerTemplate, templateOfLayer, type LayerTemplate } from '../common/layer-template';
import { LayersServices } from './layers-services';

/** Where a template comes from (spec 000 §7 "query template or template_layer"). */
export interface TemplateSource {
  template?: string;
  template_layer?: string;
}

/** `template` / `template_layer` of a query: at most one; undefined when neither is given. */
export function templateSourceOf(query: Record<string, unknown>): TemplateSource | undefined {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const template = text(query.template);
  const templateLayer = text(query.template_layer);
  if (template && templateLayer)
    throw ApiError.badRequest('template_conflict', 'layers:templates.errors.conflict', {}, 'template_layer');
  if (!template && !templateLayer) return undefined;
  return template ? { template } : { template_layer: templateLayer };
}

/**
 * Layer templates read for the caller (decision 0064): a `layertemplate` datum by its address
 * (read through the Magazine's API with the caller's permissions) or a layer the caller may read
 * as `template_layer`. Unknown, unreadable, mistyped or invalid templates are refused with a
 * reason naming them — never ignored. Also the SwitchboardTemplates of the Switchboards.
 */
@injectable()
export class LayerTemplatesService implements SwitchboardTemplates {
  @inject(LayersServices) protected readonly services!: LayersServices;

  async read(req: ResourceRequest, source: TemplateSource): Promise<{ template: LayerTemplate; name: string }> {
    if (source.template !== undefined) return this.fromDatum(req, source.template);
    if (source.template_layer !== undefined) return this.fromLayer(req, source.template_layer);
    throw ApiError.badRequest('invalid_parameter', 'layers:templates.errors.template_param', {}, 'template');
  }

  async resolve(req: ResourceRequest, source: TemplateSource): Promise<SwitchboardTemplate> {
    const { template, name } = await this.read(req, source);
    return { content_type: LAYER_TEMPLATE_TYPE, name, fields: { ...template } };
  }

  protected async fromDatum(req: ResourceRequest, address: string): Promise<{ template: LayerTemplate; name: string }> {
    if (!/^(?:\/api\/v1\/datum\/)?\d{1,9}(?:@\d{1,9})?\/?$/.test(address))
      throw ApiError.badRequest('invalid_parameter', 'layers:templates.errors.template_param', {}, 'template');
    let datum: Awaited<ReturnType<LayersServices['depots']['datum']>>;
    try {
      datum = await this.services.depots.datum(req.user, address);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404)
        throw new ApiError(404, 'unknown_template', 'layers:templates.errors.unknown', { template: address }, 'template');
      throw e;
    }
    if (!this.services.types.isAssignable(datum.content_type, LAYER_TEMPLATE_TYPE))
      throw ApiError.badRequest(
        'not_a_layer_template',
        'layers:templates.errors.not_a_template',
        { template: address, type: datum.content_type },
        'template',
      );
    const { template, problem } = readLayerTemplate(datum.fields);
    if (!template)
      throw ApiError.badRequest(
        'invalid_template',
        'layers:templates.errors.invalid',
        { template: address, reason: req.t(problem!.key, problem!.params ?? {}) },
        'template',
      );
    return { template, name: datum.name || req.t('layers:templates.default_name') };
  }

  protected async fromLayer(req: ResourceRequest, ref: string): Promise<{ template: LayerTemplate; name: string }> {
    const m = /^(?:\/api\/v1\/layer\/)?(\d{1,9})\/?$/.exec(ref);
    if (!m) throw ApiError.badRequest('invalid_parameter', 'layers:templates.errors.layer_param', {}, 'template_layer');
    const def = req.services.definitions().find((d) => d.kind === 'layer')!;
    const row = await req.services.loadReadable(def, Number(m[1]), req);
    if (!row)
      throw new ApiError(
        404,
        'unknown_template_layer',
        'layers:templates.errors.unknown_layer',
        { layer: ref },
        'template_layer',
      );
    const parsed = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);
    return {
      template: templateOfLayer({
        ...row,
        type: row.type,
        attr: parsed(row.attr),
        selection_fields: parsed(row.selection_fields),
      }),
      name: req.t('layers:templates.name_of_layer', { name: String(row.name) }),
    };
  }
}
