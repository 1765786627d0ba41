import { createHash, randomBytes } from "node:crypto";
import * as P from "@forum-mafia/protocol";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { ApiError, notFound } from "../errors.ts";
import { confirmationMail } from "../../mail/mailer.ts";
import type { ConfirmQuota, SettingsRecord, UserRecord } from "../../stores/store.ts";
import { bodyRoute, parse, requireUser, route, type RouteContext } from "./context.ts";

/** How long a confirmation link is valid. */
export const CONFIRM_TTL_MS = 48 * 3_600_000;
/** Saving the same unconfirmed address again sends a new link only once the last is this old. */
const RESEND_AFTER_MS = 15 * 60_000;

const CONFIRM_URL = "/api/me/email/confirm";
const UNSUBSCRIBE_URL = "/api/mail/unsubscribe";

const sha256 = (s: string): string => createHash("sha256").update(s).digest("hex");
const newToken = (): string => randomBytes(32).toString("base64url");

/** `?token=`; other parameters (a mail client's tracking) are ignored. */
const tokenQuery = z.object({ token: P.str(200, 1) });
/** RFC 8058's one-click body, `List-Unsubscribe=One-Click` (form-encoded); an empty body is taken too. */
const oneClickBody = z.strictObject({ "List-Unsubscribe": z.literal("One-Click").optional() });

/**
 * Issue 28: at most one confirmation mail an hour to one address, whoever asks for it, and five a day for one
 * user, whatever the addresses: alternating a victim's address with another in the settings sends the
 * victim one mail an hour at most. Counted from the outbox, so it holds across restarts and instances.
 */
export const CONFIRM_QUOTA: ConfirmQuota = {
  perAddress: 1,
  addressWindowMs: 3_600_000,
  perUser: 5,
  userWindowMs: 86_400_000,
};

/** MySettings from what is stored; null (never saved) gives the defaults. */
function view(
  s: SettingsRecord | null,
  emailAvailable: boolean,
  confirmAgainAt: number | null,
): P.MySettings {
  return {
    email: s?.email ?? null,
    emailConfirmed: s?.emailConfirmed ?? false,
    emailReminders: s?.emailReminders ?? true,
    reminders: { before: s?.before ?? P.DEFAULT_REMINDERS, quietHours: s?.quietHours ?? null },
    browserNotifications: s?.browserNotifications ?? false,
    emailAvailable,
    confirmAgainAt,
  };
}

const escape = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * Whether the link was opened by a person (a browser or a mail client asks for text/html): the answer is
 * then a small page in the user's language. Any other client gets the API's JSON, errors included.
 */
const wantsPage = (req: FastifyRequest): boolean => (req.headers.accept ?? "").includes("text/html");

/** A small page for a link opened from a mail client, where there may be no session and no web app. */
function page(
  reply: FastifyReply,
  status: number,
  lang: "ru" | "en",
  title: string,
  lines: string[],
): FastifyReply {
  const body = lines.map((l) => `<p>${l}</p>`).join("\n");
  return reply
    .status(status)
    .type("text/html; charset=utf-8")
    .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'")
    .header("cache-control", "no-store")
    .send(
      `<!doctype html>\n<html lang="${lang}"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>` +
        `<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style>` +
        `</head><body><h1>${escape(title)}</h1>\n${body}\n</body></html>\n`,
    );
}

const TEXTS = {
  confirmed: {
    ru: ["Адрес подтверждён", "Теперь напоминания о дедлайнах будут приходить на %s."],
    en: ["Address confirmed", "Deadline reminders will now be sent to %s."],
  },
  badConfirm: {
    ru: [
      "Ссылка недействительна",
      "Ссылка устарела или уже использована. Укажите адрес в настройках ещё раз.",
    ],
    en: [
      "The link is not valid",
      "The link has expired or was used already. Save your address in the settings again.",
    ],
  },
  unsubscribed: {
    ru: ["Вы отписались", "Напоминания по почте больше не придут. Включить их снова можно в настройках."],
    en: [
      "You are unsubscribed",
      "No more reminders will be e-mailed. You can turn them on again in the settings.",
    ],
  },
  badUnsubscribe: {
    ru: ["Ссылка недействительна", "Такой ссылки для отписки нет."],
    en: ["The link is not valid", "There is no such unsubscribe link."],
  },
  settings: { ru: "Настройки", en: "Settings" },
} as const;

/** Issue 15: the settings (GET and PUT /api/me/settings), the e-mail confirmation and unsubscribe links. */
export function settingsRoutes(ctx: RouteContext): void {
  const { store, clock, mail } = ctx;
  const settingsLink = (lang: "ru" | "en"): string => `<a href="/settings">${TEXTS.settings[lang]}</a>`;
  const langOfUser = async (userId: string): Promise<"ru" | "en"> =>
    (await store.accounts.userById(userId))?.lang ?? "ru";

  route(ctx, {
    method: "GET",
    url: "/api/me/settings",
    summary: "The user's reminder and e-mail settings",
    tag: "settings",
    handler: async (req) => {
      const s = await store.accounts.settings(requireUser(req).id);
      return view(s, mail !== null, await confirmAgainAt(ctx, s));
    },
  });

  bodyRoute(ctx, {
    method: "PUT",
    url: "/api/me/settings",
    summary: "Replace the settings; a new address gets a confirmation link (48 h)",
    body: P.settingsSchema,
    tag: "settings",
    handler: async (req, _reply, body) => {
      const user = requireUser(req);
      const b = body();
      const quiet = b.reminders.quietHours ?? null;
      if (quiet !== null && quiet.from === quiet.to)
        throw new ApiError(400, "invalid", "reminders.quietHours: from and to must differ");
      const saved = await saveSettings(ctx, user, b, await store.accounts.settings(user.id));
      return view(saved, mail !== null, await confirmAgainAt(ctx, saved));
    },
  });

  route(ctx, {
    method: "GET",
    url: CONFIRM_URL,
    summary: "Confirm an e-mail address (the link in the confirmation mail; no session needed)",
    tag: "settings",
    query: tokenQuery,
    handler: async (req, reply) => {
      const { token } = parse(tokenQuery, req.query, "token");
      const s = await store.accounts.settingsByConfirmToken(sha256(token));
      if (s === null || s.email === null || (s.confirmExpiresAt ?? 0) <= clock.now()) {
        if (!wantsPage(req))
          throw new ApiError(400, "token/invalid", "token: the link has expired, was used, or never existed");
        const lang = s ? await langOfUser(s.userId) : (req.user?.lang ?? "ru");
        const [title, line] = TEXTS.badConfirm[lang];
        return page(reply, 400, lang, title, [line, settingsLink(lang)]);
      }
      const done: SettingsRecord = {
        ...s,
        emailConfirmed: true,
        confirmTokenHash: null,
        confirmExpiresAt: null,
      };
      await store.accounts.saveSettings(done);
      mail?.reminders.settingsChanged(done);
      if (!wantsPage(req)) return { ok: true, email: s.email };
      const lang = await langOfUser(s.userId);
      const [title, line] = TEXTS.confirmed[lang];
      return page(reply, 200, lang, title, [escape(line.replace("%s", s.email)), settingsLink(lang)]);
    },
  });

  const unsubscribe = async (token: string): Promise<SettingsRecord | null> => {
    const s = await store.accounts.settingsByUnsubscribeToken(token);
    if (s === null) return null;
    const off: SettingsRecord = { ...s, emailReminders: false };
    if (s.emailReminders) await store.accounts.saveSettings(off);
    mail?.reminders.settingsChanged(off);
    return off;
  };

  route(ctx, {
    method: "GET",
    url: UNSUBSCRIBE_URL,
    summary: "Turn e-mail reminders off (the link in every mail; no session needed)",
    tag: "settings",
    query: tokenQuery,
    handler: async (req, reply) => {
      const { token } = parse(tokenQuery, req.query, "token");
      const s = await unsubscribe(token);
      if (!wantsPage(req)) {
        if (s === null) throw notFound("token: no such unsubscribe link");
        return { ok: true };
      }
      const lang = s ? await langOfUser(s.userId) : (req.user?.lang ?? "ru");
      const [title, line] = (s ? TEXTS.unsubscribed : TEXTS.badUnsubscribe)[lang];
      return page(reply, s ? 200 : 404, lang, title, [line, settingsLink(lang)]);
    },
  });

  oneClickRoute(ctx, async (token) => {
    if ((await unsubscribe(token)) === null) throw notFound("token: no such unsubscribe link");
  });
}

/**
 * RFC 8058's one-click unsubscribe: the mail client posts `List-Unsubscribe=One-Click` form-encoded, with
 * no Origin and no session. That content type is accepted on this route alone (a parser scoped to an
 * encapsulated plugin); the token in the query is the only credential. The route is listed in the API
 * document here, since the plugin registers it only when the app loads.
 */
function oneClickRoute(ctx: RouteContext, unsubscribe: (token: string) => Promise<void>): void {
  const summary = "One-click unsubscribe (RFC 8058), as mail clients post it";
  ctx.docs.push({
    method: "POST",
    url: UNSUBSCRIBE_URL,
    summary,
    body: oneClickBody,
    query: tokenQuery,
    tag: "settings",
  });
  void ctx.app.register(async (scoped) => {
    scoped.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    bodyRoute(
      { ...ctx, app: scoped, docs: [] },
      {
        method: "POST",
        url: UNSUBSCRIBE_URL,
        summary,
        body: oneClickBody,
        query: tokenQuery,
        tag: "settings",
        handler: async (req, _reply, body) => {
          const { token } = parse(tokenQuery, req.query, "token");
          body();
          await unsubscribe(token);
          return { ok: true };
        },
      },
    );
  });
}

/** Issue 28: MySettings.confirmAgainAt for these settings: null unless an unconfirmed address must wait. */
async function confirmAgainAt(ctx: RouteContext, s: SettingsRecord | null): Promise<number | null> {
  if (ctx.mail === null || s === null || s.email === null || s.emailConfirmed) return null;
  const now = ctx.clock.now();
  const at = await ctx.store.outbox.confirmationAllowedAt(s.userId, s.email, CONFIRM_QUOTA, now);
  return at > now ? at : null;
}

/**
 * Save a PUT's settings. The same address (compared ignoring case) keeps its state; a new one is
 * unconfirmed and gets a confirmation mail when e-mail is on, as does the same unconfirmed address saved
 * again once its last link is RESEND_AFTER_MS old, as long as CONFIRM_QUOTA allows one (issue 28). The mail
 * is queued after the settings are saved, since the outbox sends it only while the address is still the
 * user's.
 */
async function saveSettings(
  ctx: RouteContext,
  user: UserRecord,
  b: P.SettingsBody,
  old: SettingsRecord | null,
): Promise<SettingsRecord> {
  const { store, clock, mail } = ctx;
  const now = clock.now();
  const email = b.email ?? null;
  const same = email !== null && old?.email != null && old.email.toLowerCase() === email.toLowerCase();
  const confirmed = same && old.emailConfirmed;
  const linkAge = old?.confirmExpiresAt != null ? now - (old.confirmExpiresAt - CONFIRM_TTL_MS) : Infinity;
  const wanted = mail !== null && email !== null && !confirmed && (!same || linkAge >= RESEND_AFTER_MS);
  // Issue 28: within the quota only; else the address is saved and the link is not sent again (yet).
  const sendLink =
    wanted && (await store.outbox.confirmationAllowedAt(user.id, email, CONFIRM_QUOTA, now)) <= now;
  const token = sendLink ? newToken() : null;
  const saved: SettingsRecord = {
    userId: user.id,
    email,
    emailConfirmed: confirmed,
    emailReminders: b.emailReminders ?? true,
    before: b.reminders.before,
    quietHours: b.reminders.quietHours ?? null,
    browserNotifications: b.browserNotifications ?? false,
    confirmTokenHash: token !== null ? sha256(token) : same && !confirmed ? old.confirmTokenHash : null,
    confirmExpiresAt:
      token !== null ? now + CONFIRM_TTL_MS : same && !confirmed ? old.confirmExpiresAt : null,
    unsubscribeToken: old?.unsubscribeToken ?? newToken(),
  };
  await store.accounts.saveSettings(saved);
  if (mail !== null && token !== null && email !== null) {
    const link = mail.mailer.link(`${CONFIRM_URL}?token=${token}`);
    const m = confirmationMail(user.lang, user.nick, mail.mailer.siteUrl, link);
    // The quota is checked again with the insert, atomically: of two saves at once, one mail at most. The
    // loser's link was never sent; its settings say when one may be.
    await mail.mailer.queueConfirmation(
      {
        key: `confirm:${user.id}:${sha256(token).slice(0, 24)}`,
        userId: user.id,
        to: email,
        lang: user.lang,
        subject: m.subject,
        text: m.text,
        unsubscribeToken: saved.unsubscribeToken,
      },
      CONFIRM_QUOTA,
    );
  }
  mail?.reminders.settingsChanged(saved);
  return saved;
}
