import { ApiError, createI18n, inject, injectable, type AuthUser, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { switchboardFor } from './switchboard-access';
import { frameFileRecords, frameFileUrl, recordKey, type FrameFileRecord } from './frame-file-records';
import { parseFrameFileUrl } from '../common/frame-file-url';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { type FileAccess, type OpenedFile } from '../common/switchboards-api';
import { SwitchboardsServices } from './switchboards-services';

/**
 * A file of frame `frameId` with blob `hash` as the download route serves it to the caller of `r`:
 * the frame's switchboard must be readable (404 otherwise), the server must have recorded the blob
 * for the frame, and the frame's current content must still hold the datum (decision 0018).
 */
export async function readableFrameFile(
  r: ResourceRequest,
  frameId: number,
  hash: string,
): Promise<{ record: FrameFileRecord; item: Record<string, unknown> }> {
  const [frame] = (await r.manager.query(`SELECT id, switchboard_id, content_hash FROM switchboard_frame WHERE id = $1`, [
    frameId,
  ])) as Row[];
  if (!frame) throw ApiError.notFound();
  await switchboardFor(r, frame.switchboard_id as number, 'read');
  const record = (await frameFileRecords(r.manager, [{ frameId, hash }])).get(recordKey(frameId, hash));
  if (!record) throw ApiError.notFound();
  const [found] = (await r.manager.query(
    `SELECT e AS item FROM switchboard_content c, jsonb_array_elements(c.items) e
      WHERE c.hash = $1 AND e->>'download_url' = $2 LIMIT 1`,
    [String(frame.content_hash ?? '').trim(), `${frameFileUrl(frameId, hash)}download/`],
  )) as { item: Record<string, unknown> }[];
  if (!found) throw ApiError.notFound();
  return { record, item: found.item };
}

/** The Switchboards' FileAccess: function runs read frame files with the running user's permissions. */
@injectable()
export class FrameFileAccess implements FileAccess {
  @inject(SwitchboardsServices) protected readonly services!: SwitchboardsServices;
  private translator?: ReturnType<typeof createI18n>;

  async open(user: AuthUser, file: Record<string, unknown>): Promise<OpenedFile> {
    const address = parseFrameFileUrl(file.download_url);
    if (!address) throw ApiError.notFound();
    const { record, item } = await readableFrameFile(this.request(user), address.frameId, address.hash);
    return {
      stream: this.services.blobs.open(address.hash),
      size: record.size,
      mime_type: record.mime_type,
      name: String(item.value ?? ''),
    };
  }

  /** A resource-layer request as `user`, outside any HTTP call (no API key realms). */
  protected request(user: AuthUser): ResourceRequest {
    this.translator ??= createI18n([{ id: 'switchboards.file-access', namespace: 'switchboards', de, en }]);
    const lang = user.language === 'de' ? 'de' : 'en';
    return {
      user,
      t: this.translator.getFixedT(lang, 'switchboards'),
      lang,
      manager: this.services.dataSource.manager,
      services: this.services.resources,
    };
  }
}
