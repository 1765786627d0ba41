import { createServer, defaultStore } from "../src/server.ts";

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const server = await createServer({ store: defaultStore(), logger: process.env.LOG === "1" });
await server.app.listen({ port, host });
console.log(
  `forum-mafia: http://localhost:${port} (data in ${process.env.DATA_DIR ?? "data"}/forum-mafia.sqlite)`,
);
const stop = (): void => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
