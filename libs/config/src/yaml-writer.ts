import { Document } from 'yaml';

export interface YamlTextOptions {
  /** Lines written as `# …` comments above the data. */
  headerComment?: string;
}

/**
 * YAML text for a value, as Parley writes files people review and edit (promoted scenarios):
 * block style, strings never folded, keys in the value's order, quotes only where YAML needs them,
 * so that reading the text back gives the value exactly.
 */
export function toYamlText(value: unknown, options: YamlTextOptions = {}): string {
  const document = new Document(value);
  if (options.headerComment !== undefined) {
    document.commentBefore = options.headerComment
      .split('\n')
      .map((line) => (line === '' ? '' : ` ${line}`))
      .join('\n');
  }
  return document.toString({ lineWidth: 0, flowCollectionPadding: false });
}
