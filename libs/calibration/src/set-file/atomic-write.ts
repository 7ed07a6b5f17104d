/**
 * The calibration set, its reports and its judge recording are written with the one atomic writer
 * every Parley file goes through (write fully, fsync, check, rename; a full disk changes nothing).
 */
export { temporaryPathFor, writeFileAtomically } from '@parley/core';
