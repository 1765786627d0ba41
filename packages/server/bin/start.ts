import { fileURLToPath } from "node:url";
import { parseSmtpUrl } from "../src/mail/mailer.ts";
import {
  createServer,
  defaultStore,
  DRAIN_MS,
  parsePublicUrl,
  parseTrustProxy,
  productionOptions,
} from "../src/server.ts";

/** The web app built by `npm start` (vite build) before the server starts. */
const webRoot = fileURLToPath(new URL("../../web/dist", import.meta.url));

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const rateLimit = process.env.RATE_LIMIT === undefined ? undefined : Number(process.env.RATE_LIMIT);
const publicUrl = parsePublicUrl(process.env.PUBLIC_URL);
if ("error" in publicUrl) {
  console.error(publicUrl.error);
  process.exit(2);
}
const smtpUrl = parseSmtpUrl(process.env.SMTP_URL);
if ("error" in smtpUrl) {
  console.error(smtpUrl.error);
  process.exit(2);
}
const { store, where } = await defaultStore();
// productionOptions: passwords are hashed at the production cost (a test's cheaper cost is refused).
const server = await createServer(
  productionOptions({
    store,
    logger: process.env.LOG === "1",
    webRoot,
    publicUrl: publicUrl.url,
    trustProxy: parseTrustProxy(process.env.TRUST_PROXY),
    smtpUrl: smtpUrl.url,
    mailFrom: process.env.MAIL_FROM || null,
    localUrl: `http://localhost:${port}`,
    ...(rateLimit !== undefined && Number.isFinite(rateLimit) ? { rateLimit } : {}),
  }),
);
await server.app.listen({ port, host });
console.log(
  `forum-mafia: ${publicUrl.url ?? `http://localhost:${port}`} (data: ${where}; e-mail: ${smtpUrl.url ? "on" : "off, no SMTP_URL"})`,
);
if (!publicUrl.url && !["127.0.0.1", "localhost", "::1"].includes(host))
  console.warn(
    `forum-mafia: HOST=${host} without PUBLIC_URL: only requests for localhost are served; set PUBLIC_URL`,
  );
// Issue 28: SIGTERM (a rolling restart) drains: no new connections, the requests in flight served, the
// streams told to reconnect elsewhere, the lead given up (server.ts, close). A second signal exits at once.
let stopping = false;
const stop = (): void => {
  if (stopping) process.exit(1);
  stopping = true;
  const drainMs = process.env.DRAIN_MS ? Number(process.env.DRAIN_MS) : DRAIN_MS;
  server.close(Number.isFinite(drainMs) && drainMs >= 0 ? drainMs : DRAIN_MS).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`forum-mafia: the shutdown failed: ${String(error)}`);
      process.exit(1);
    },
  );
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
