export * from './payout-table.js';
export * from './round-schedule.js';
export * from './round-close.js';
export * from './round-entry.js';
export * from './prize-pool.js';
