import { consoleReporter } from './console.js';
import { githubReporter } from './github.js';
import { htmlReporter } from './html.js';
import { jsonReporter } from './json.js';
import { junitReporter } from './junit.js';
import { markdownReporter } from './markdown.js';
import type { ReporterName } from './reporter-names.js';
import type { ReporterFactory } from './reporter.js';

/**
 * Every reporter `parley run --reporter NAME` knows, one for each of REPORTER_NAMES. A new reporter
 * is one new file in this folder exporting a ReporterFactory (see reporter.ts for the interface),
 * plus one entry here and its name in reporter-names.ts.
 */
export const REPORTERS = {
  console: consoleReporter,
  json: jsonReporter,
  junit: junitReporter,
  markdown: markdownReporter,
  github: githubReporter,
  html: htmlReporter,
} as const satisfies Record<ReporterName, ReporterFactory>;
