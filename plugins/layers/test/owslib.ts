import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** OWSLib's ISO parser (Debian python3-owslib) on a file: the fields the export maps. */
const OWSLIB = `
import json, sys, warnings
warnings.simplefilter("ignore")
from owslib.etree import etree
from owslib.iso import MD_Metadata
md = MD_Metadata(etree.parse(sys.argv[1]).getroot())
ident = md.identificationinfo[0]
bb = getattr(ident, "bbox", None)
print(json.dumps({
  "identifier": md.identifier,
  "title": ident.title,
  "abstract": ident.abstract,
  "keywords": [k for kw in ident.keywords for k in kw["keywords"]],
  "bbox": [float(bb.minx), float(bb.miny), float(bb.maxx), float(bb.maxy)] if bb else None,
  "temporal": [getattr(ident, "temporalextent_start", None), getattr(ident, "temporalextent_end", None)],
  "crs": md.referencesystem.code if md.referencesystem else None,
  "organisation": md.contact[0].organization,
  "email": md.contact[0].email,
  "links": [[o.url, o.protocol, o.name] for o in md.distribution.online],
  "language": md.language or md.languagecode,
  "hierarchy": md.hierarchy,
  "datestamp": md.datestamp,
  "lineage": md.dataquality.lineage if md.dataquality else None,
}))
`;

export function owslibRead(xml: string): Record<string, unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'iso-'));
  try {
    writeFileSync(join(dir, 'layer.xml'), xml);
    // Debian's python3 with python3-owslib (the test prerequisites name it).
    return JSON.parse(execFileSync('/usr/bin/python3', ['-c', OWSLIB, join(dir, 'layer.xml')], { encoding: 'utf8' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
