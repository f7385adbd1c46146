import type { SeedStep } from './index.js';

/** Every seed step in order: base data (dictionaries, menus) first, then the demo university. */
export const seedSteps: SeedStep[] = [];
