import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { askedStoredQueries, GET_FEATURE_BY_ID, standaloneFeature, valueCollectionXml } from './wfs-stored-queries';

describe('WFS stored query documents', () => {
  it('describes every stored query when none is named, and names the first unknown one', () => {
    assert.deepEqual(askedStoredQueries(undefined), { ids: [GET_FEATURE_BY_ID] });
    assert.deepEqual(askedStoredQueries(' , '), { ids: [GET_FEATURE_BY_ID] });
    assert.deepEqual(askedStoredQueries(`${GET_FEATURE_BY_ID}, urn:x:Other`), { unknown: 'urn:x:Other' });
  });

  it('declares the namespaces on a feature written as the document root, escaping the address', () => {
    const doc = standaloneFeature(
      '<wb:t gml:id="t.1"><wb:a>1</wb:a></wb:t>',
      'http://h/wfs/t?a=1&b=2',
      'http://www.opengis.net/gml/3.2',
    );
    assert.match(
      doc,
      /^<\?xml[^>]*>\n<wb:t xmlns:wb="http:\/\/h\/wfs\/t\?a=1&amp;b=2" xmlns:gml="http:\/\/www.opengis.net\/gml\/3.2" gml:id="t.1">/,
    );
    const parsed = new XMLParser({ ignoreAttributes: false, removeNSPrefix: true }).parse(doc);
    assert.equal(parsed.t.a, 1);
  });

  it('counts the members of a value collection and leaves numberMatched unknown when told so', () => {
    const x = valueCollectionXml(['a', 'b'], { url: 'http://h/', matched: undefined, timeStamp: 'T', gmlNs: 'G' });
    assert.match(x, /numberMatched="unknown" numberReturned="2"><wfs:member>a<\/wfs:member><wfs:member>b<\/wfs:member>/);
    assert.match(
      valueCollectionXml([], { url: 'http://h/', matched: 3, timeStamp: 'T', gmlNs: 'G' }),
      /numberMatched="3" numberReturned="0"\/>/,
    );
  });
});
