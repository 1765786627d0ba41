/** Filled in by the lobby screens. */
export const ru = {};
export const en: typeof ru = {};
