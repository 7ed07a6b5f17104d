/**
 * A strict reader for the XML subset junit.xml uses (declaration, elements, attributes, text,
 * CDATA), so tests check the output is well-formed and read attributes back decoded, instead of
 * matching on escaped text. Throws on anything malformed: unbalanced tags, a raw `<` or `&` where
 * it must be escaped, unquoted attributes, a CDATA section that ends early.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Text and CDATA content, decoded, concatenated. */
  text: string;
}

export function readXml(source: string): XmlElement {
  let position = 0;
  const declaration = /^<\?xml [^?]*\?>\s*/.exec(source);
  if (declaration) position = declaration[0].length;

  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  const current = (): XmlElement => {
    const top = stack[stack.length - 1];
    if (top === undefined) throw new Error('element stack empty');
    return top;
  };

  while (position < source.length) {
    if (source.startsWith('<![CDATA[', position)) {
      const end = source.indexOf(']]>', position);
      if (end < 0) throw new Error(`unterminated CDATA at ${position}`);
      current().text += source.slice(position + 9, end);
      position = end + 3;
    } else if (source.startsWith('</', position)) {
      const match = /^<\/([A-Za-z_][\w.-]*)\s*>/.exec(source.slice(position));
      const open = stack.pop();
      if (!match || open?.name !== match[1]) throw new Error(`mismatched closing tag at ${position}`);
      position += match[0].length;
    } else if (source[position] === '<') {
      const match = /^<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/.exec(source.slice(position));
      if (!match) throw new Error(`malformed tag at ${position}: ${source.slice(position, position + 40)}`);
      const element: XmlElement = { name: match[1] ?? '', attributes: readAttributes(match[2] ?? ''), children: [], text: '' };
      current().children.push(element);
      if (match[3] !== '/') stack.push(element);
      position += match[0].length;
    } else {
      const next = source.indexOf('<', position);
      const end = next < 0 ? source.length : next;
      const text = source.slice(position, end);
      if (stack.length === 1 && text.trim() !== '') throw new Error('text outside the root element');
      if (text.includes(']]>')) throw new Error(`"]]>" outside CDATA at ${position}`);
      current().text += decode(text);
      position = end;
    }
  }
  if (stack.length !== 1) throw new Error(`unclosed element ${current().name}`);
  if (root.children.length !== 1) throw new Error('expected exactly one root element');
  const [documentElement] = root.children;
  if (documentElement === undefined) throw new Error('no root element');
  return documentElement;
}

/** Every element named `name` under `element`, depth first. */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((child) => [...(child.name === name ? [child] : []), ...findAll(child, name)]);
}

function readAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of text.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
    const [, name, value] = match;
    if (name === undefined || value === undefined) continue;
    if (name in attributes) throw new Error(`duplicate attribute ${name}`);
    attributes[name] = decode(value);
  }
  return attributes;
}

function decode(text: string): string {
  const invalid = /&(?!(?:lt|gt|amp|quot|apos|#x[0-9A-Fa-f]+|#\d+);)/.exec(text);
  if (invalid) throw new Error(`unescaped & in ${JSON.stringify(text)}`);
  return text.replace(/&(lt|gt|amp|quot|apos|#x[0-9A-Fa-f]+|#\d+);/g, (_, entity: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (entity in named) return named[entity] ?? '';
    return String.fromCodePoint(entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10));
  });
}
