/** The npm package the CLI is published as (the name `parley` belongs to another package). */
export const PARLEY_PACKAGE_NAME = 'parley-eval';
/** Equal to apps/cli/package.json's version and the runner's PARLEY_VERSION (a test holds them together). */
export const PARLEY_PACKAGE_VERSION = '0.1.0';
