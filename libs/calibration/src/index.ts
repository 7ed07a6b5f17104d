export * from './statistics/index.js';
export * from './set-file/calibration-set-file.js';
export * from './set-file/calibration-editor.js';
export * from './set-file/update-calibration-set.js';
export * from './set-file/save-rating.js';
export * from './set-file/atomic-write.js';
export * from './set-file/file-lock.js';
