export { runTui, type TuiOptions } from './run-tui.js';
