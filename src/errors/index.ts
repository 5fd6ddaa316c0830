export * from './cadre-error.js';
export * from './validation-error.js';
export * from './model-error.js';
export * from './store-error.js';
export * from './stored-data-error.js';
