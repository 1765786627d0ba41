/** Filled in by the night-form, chats and results screens. */
export const ru = {};
export const en: typeof ru = {};
