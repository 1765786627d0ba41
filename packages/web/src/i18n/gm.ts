/** Filled in by the gm screens. */
export const ru = {};
export const en: typeof ru = {};
