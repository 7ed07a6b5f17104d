/**
 * GitHub Actions workflow commands (`::error file=…,line=…::message`), escaped as the runner reads
 * them: `%`, CR and LF in the message; also `:` and `,` in property values.
 */
export type AnnotationLevel = 'error' | 'warning' | 'notice';

export interface AnnotationProperties {
  file?: string;
  line?: number;
  col?: number;
  title?: string;
}

export function annotation(level: AnnotationLevel, message: string, properties: AnnotationProperties = {}): string {
  const parts = Object.entries(properties)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`);
  return `::${level}${parts.length > 0 ? ` ${parts.join(',')}` : ''}::${escapeData(message)}`;
}

/** A collapsible section of the log: `::group::title`, the lines, `::endgroup::`. */
export function group(title: string, lines: readonly string[]): string[] {
  return [`::group::${escapeData(title)}`, ...lines, '::endgroup::'];
}

function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}
