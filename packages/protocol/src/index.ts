export * from './errors.js';
export * from './money.js';
export * from './payouts.js';
export * from './bridge.js';
export * from './bridge-messages.js';
export * from './approvals.js';
export * from './display-name.js';
export * from './wire/index.js';
