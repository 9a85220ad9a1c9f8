// Moved to listener/openapi.ts (issue 29); re-exported so the routes' imports stay as they were
// until they are pointed at listener/ directly.
export * from '../listener/openapi.js';
