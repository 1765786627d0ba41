export * from "./requests.ts";
export * from "./views.ts";
