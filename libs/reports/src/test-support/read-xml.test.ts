import { describe, expect, it } from 'vitest';
import { findAll, readXml } from './read-xml.js';

describe('readXml (test support)', () => {
  it('reads elements, decoded attributes, text and CDATA', () => {
    const root = readXml('<?xml version="1.0"?>\n<a x="&lt;&amp;&quot;&#xA;"><b>t &amp; u</b><b><![CDATA[<raw & ]]></b></a>');
    expect(root.attributes['x']).toBe('<&"\n');
    expect(findAll(root, 'b').map((element) => element.text)).toEqual(['t & u', '<raw & ']);
  });

  it.each([
    ['unbalanced tags', '<a><b></a>'],
    ['a raw & in an attribute', '<a x="&"/>'],
    ['a raw < in an attribute', '<a x="<"/>'],
    ['an unquoted attribute', '<a x=1/>'],
    [']]> outside CDATA', '<a><![CDATA[x]]> ]]></a>'],
    ['two roots', '<a/><b/>'],
  ])('rejects %s', (_, source) => {
    expect(() => readXml(source)).toThrow();
  });
});
