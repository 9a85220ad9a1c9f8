export * from './game-server.js';
export * from './catalog.js';
export * from './player.js';
export * from './developer.js';
export * from './sign-in.js';
export * from './chain.js';
export * from './boards.js';
export * from './tournaments.js';
