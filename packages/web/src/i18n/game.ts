/** Filled in by the game screens. */
export const ru = {};
export const en: typeof ru = {};
