export * from "./server.ts";
export * from "./stores/store.ts";
export * from "./stores/sqlite-store.ts";
export * from "./clock.ts";
export * from "./stores/pg-store.ts";
