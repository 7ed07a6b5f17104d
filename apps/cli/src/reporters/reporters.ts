import { consoleReporter } from './console.js';
import { githubReporter } from './github.js';
import { htmlReporter } from './html.js';
import { jsonReporter } from './json.js';
import { junitReporter } from './junit.js';
import { markdownReporter } from './markdown.js';
import type { ReporterFactory } from './reporter.js';

/**
 * Every reporter `parley run --reporter NAME` knows, in the order their output is written.
 * `--reporter`'s check and help text are made from this map. A new reporter is one new file in
 * this folder exporting a ReporterFactory (see reporter.ts for the interface), plus one entry here.
 */
export const REPORTERS = {
  console: consoleReporter,
  json: jsonReporter,
  junit: junitReporter,
  markdown: markdownReporter,
  github: githubReporter,
  html: htmlReporter,
} as const satisfies Record<string, ReporterFactory>;

export type ReporterName = keyof typeof REPORTERS;

export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];

/** The reporter of a run without `--reporter`. */
export const DEFAULT_REPORTER: ReporterName = 'console';
