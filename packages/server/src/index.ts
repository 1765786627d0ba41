export * from "./server.ts";
export * from "./store.ts";
export * from "./sqlite-store.ts";
export * from "./clock.ts";
export * from "./pg-store.ts";
