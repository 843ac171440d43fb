import { inject, injectable } from '@werkbank/sdk/node';
import { PublishedLayers, type Publication } from './published-layers';
import { scanSchema, type FeatureSchema } from './wfs-documents';

/**
 * A publication's properties with their types, its geometry types and extent, from one pass over
 * its features, kept by publication key (a publication never changes, so entries never go stale):
 * the WFS's feature type and the columns of CSV downloads.
 */
@injectable()
export class FeatureSchemas {
  @inject(PublishedLayers) protected readonly published!: PublishedLayers;
  private readonly schemas = new Map<string, Promise<FeatureSchema>>();

  of(publication: Publication): Promise<FeatureSchema> {
    let schema = this.schemas.get(publication.key);
    if (!schema) {
      schema = scanSchema(this.published.features(publication));
      this.schemas.set(publication.key, schema);
      schema.catch(() => this.schemas.delete(publication.key));
      while (this.schemas.size > 64) this.schemas.delete(this.schemas.keys().next().value!);
    }
    return schema;
  }
}
