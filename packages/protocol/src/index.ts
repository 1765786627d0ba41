export * from "./requests.ts";
export * from "./views.ts";
export * from "./me.ts";
export * from "./unread.ts";
export * from "./setups.ts";
export * from "./notebooks.ts";
export * from "./stream.ts";
