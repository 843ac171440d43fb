/**
 * ISO 19139 (gmd) metadata of a layer, INSPIRE-compatible in its core elements (decision 0066):
 * file identifier, language, hierarchy level, contact, date stamp, reference system, citation with
 * title and revision date, abstract, keywords, geographic and temporal extent, online resources.
 * Every text goes through `esc`; nothing is parsed, so no entity can be resolved.
 */
export interface IsoLayerRecord {
  identifier: string;
  title: string;
  abstract: string;
  language: string;
  modified: Date;
  keywords: string[];
  /** [west, south, east, north] in degrees. */
  bbox: [number, number, number, number] | null;
  timeMin: string | null;
  timeMax: string | null;
  referenceSystem: string;
  contact: { organisation: string; email: string };
  lineage: string;
  links: Array<{ url: string; protocol: string; name: string }>;
}

/** XML text and attribute escaping; characters XML 1.0 forbids are dropped. */
export function esc(s: string): string {
  return (
    s
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

const cs = (v: string) => `<gco:CharacterString>${esc(v)}</gco:CharacterString>`;
const code = (list: string, value: string) =>
  `<gmd:${list} codeList="http://standards.iso.org/iso/19139/resources/gmxCodelists.xml#${list}" codeListValue="${esc(value)}">${esc(value)}</gmd:${list}>`;

function party(c: IsoLayerRecord['contact']): string {
  return `<gmd:CI_ResponsibleParty>
      <gmd:organisationName>${cs(c.organisation)}</gmd:organisationName>
      <gmd:contactInfo><gmd:CI_Contact><gmd:address><gmd:CI_Address>
        <gmd:electronicMailAddress>${cs(c.email)}</gmd:electronicMailAddress>
      </gmd:CI_Address></gmd:address></gmd:CI_Contact></gmd:contactInfo>
      <gmd:role>${code('CI_RoleCode', 'pointOfContact')}</gmd:role>
    </gmd:CI_ResponsibleParty>`;
}

const decimal = (n: number) => `<gco:Decimal>${Number(n)}</gco:Decimal>`;

export function iso19139(r: IsoLayerRecord): string {
  const day = r.modified.toISOString().slice(0, 10);
  const bbox = r.bbox
    ? `<gmd:geographicElement><gmd:EX_GeographicBoundingBox>
          <gmd:westBoundLongitude>${decimal(r.bbox[0])}</gmd:westBoundLongitude>
          <gmd:eastBoundLongitude>${decimal(r.bbox[2])}</gmd:eastBoundLongitude>
          <gmd:southBoundLatitude>${decimal(r.bbox[1])}</gmd:southBoundLatitude>
          <gmd:northBoundLatitude>${decimal(r.bbox[3])}</gmd:northBoundLatitude>
        </gmd:EX_GeographicBoundingBox></gmd:geographicElement>`
    : '';
  const time =
    r.timeMin || r.timeMax
      ? `<gmd:temporalElement><gmd:EX_TemporalExtent><gmd:extent>
          <gml:TimePeriod gml:id="t1"><gml:beginPosition>${esc(r.timeMin ?? '')}</gml:beginPosition><gml:endPosition>${esc(r.timeMax ?? '')}</gml:endPosition></gml:TimePeriod>
        </gmd:extent></gmd:EX_TemporalExtent></gmd:temporalElement>`
      : '';
  const extent = bbox || time ? `<gmd:extent><gmd:EX_Extent>${bbox}${time}</gmd:EX_Extent></gmd:extent>` : '';
  const keywords = r.keywords.length
    ? `<gmd:descriptiveKeywords><gmd:MD_Keywords>${r.keywords
        .map((k) => `<gmd:keyword>${cs(k)}</gmd:keyword>`)
        .join('')}</gmd:MD_Keywords></gmd:descriptiveKeywords>`
    : '';
  const links = r.links
    .map(
      (l) => `<gmd:onLine><gmd:CI_OnlineResource>
          <gmd:linkage><gmd:URL>${esc(l.url)}</gmd:URL></gmd:linkage>
          <gmd:protocol>${cs(l.protocol)}</gmd:protocol>
          <gmd:name>${cs(l.name)}</gmd:name>
        </gmd:CI_OnlineResource></gmd:onLine>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gmd:MD_Metadata xmlns:gmd="http://www.isotc211.org/2005/gmd" xmlns:gco="http://www.isotc211.org/2005/gco" xmlns:gml="http://www.opengis.net/gml/3.2" xmlns:xlink="http://www.w3.org/1999/xlink">
  <gmd:fileIdentifier>${cs(r.identifier)}</gmd:fileIdentifier>
  <gmd:language>${code('LanguageCode', r.language)}</gmd:language>
  <gmd:characterSet>${code('MD_CharacterSetCode', 'utf8')}</gmd:characterSet>
  <gmd:hierarchyLevel>${code('MD_ScopeCode', 'dataset')}</gmd:hierarchyLevel>
  <gmd:contact>${party(r.contact)}</gmd:contact>
  <gmd:dateStamp><gco:Date>${day}</gco:Date></gmd:dateStamp>
  <gmd:metadataStandardName>${cs('ISO 19115:2003/19139')}</gmd:metadataStandardName>
  <gmd:metadataStandardVersion>${cs('1.0')}</gmd:metadataStandardVersion>
  <gmd:referenceSystemInfo><gmd:MD_ReferenceSystem><gmd:referenceSystemIdentifier><gmd:RS_Identifier>
    <gmd:code>${cs(r.referenceSystem)}</gmd:code>
  </gmd:RS_Identifier></gmd:referenceSystemIdentifier></gmd:MD_ReferenceSystem></gmd:referenceSystemInfo>
  <gmd:identificationInfo><gmd:MD_DataIdentification>
    <gmd:citation><gmd:CI_Citation>
      <gmd:title>${cs(r.title)}</gmd:title>
      <gmd:date><gmd:CI_Date><gmd:date><gco:Date>${day}</gco:Date></gmd:date><gmd:dateType>${code('CI_DateTypeCode', 'revision')}</gmd:dateType></gmd:CI_Date></gmd:date>
      <gmd:identifier><gmd:MD_Identifier><gmd:code>${cs(r.identifier)}</gmd:code></gmd:MD_Identifier></gmd:identifier>
    </gmd:CI_Citation></gmd:citation>
    <gmd:abstract>${cs(r.abstract)}</gmd:abstract>
    <gmd:pointOfContact>${party(r.contact)}</gmd:pointOfContact>
    ${keywords}
    <gmd:resourceConstraints><gmd:MD_Constraints><gmd:useLimitation>${cs('')}</gmd:useLimitation></gmd:MD_Constraints></gmd:resourceConstraints>
    <gmd:language>${code('LanguageCode', r.language)}</gmd:language>
    ${extent}
  </gmd:MD_DataIdentification></gmd:identificationInfo>
  <gmd:distributionInfo><gmd:MD_Distribution><gmd:transferOptions><gmd:MD_DigitalTransferOptions>
    ${links}
  </gmd:MD_DigitalTransferOptions></gmd:transferOptions></gmd:MD_Distribution></gmd:distributionInfo>
  <gmd:dataQualityInfo><gmd:DQ_DataQuality><gmd:scope><gmd:DQ_Scope><gmd:level>${code('MD_ScopeCode', 'dataset')}</gmd:level></gmd:DQ_Scope></gmd:scope>
    <gmd:lineage><gmd:LI_Lineage><gmd:statement>${cs(r.lineage)}</gmd:statement></gmd:LI_Lineage></gmd:lineage>
  </gmd:DQ_DataQuality></gmd:dataQualityInfo>
</gmd:MD_Metadata>
`;
}
