import {
  anyOf,
  classes,
  type El,
  findAll,
  findFirst,
  hasClass,
  sel,
  shortText,
  type Test,
  textOf,
} from "./dom.ts";
import { bodyBBCode, NEVER_BODY, phpbb2QuoteHeading, withoutUnderscoreSignature } from "./body.ts";
import type { ForumEngine, FoundPost } from "./read.ts";

/** How one forum engine lays out a post on its page. */
export interface EngineReader {
  readonly engine: Exclude<ForumEngine, "generic">;
  /** The element that holds one whole post. */
  readonly post: Test;
  readonly author: (post: El) => string | null;
  /** The element whose content is what the post says. */
  readonly body: (post: El) => El | null;
  readonly label: (post: El) => string | null;
  readonly time: (post: El) => string;
  /** What to drop inside the body besides NEVER_BODY. */
  readonly drop?: Test;
  /** What to cut from the body's BBCode where no element marks it (a signature after a line). */
  readonly after?: (body: string) => string;
}

const text = (el: El | null): string | null => {
  if (el === null) return null;
  const t = textOf(el);
  return t === "" ? null : t;
};
const first = (post: El, selector: string, skip?: Test): El | null => findFirst(post, sel(selector), skip);
/** A time element's `datetime`, else its title, else its text. */
const timeOf = (el: El | null): string =>
  el === null ? "" : (el.attrs["datetime"] ?? el.attrs["title"] ?? textOf(el)).trim();
/** "#12" from a text that holds one, else null. */
const counter = (s: string | null): string | null =>
  s === null ? null : (/#\s*(\d+)/u.exec(s)?.[0].replace(/\s/gu, "") ?? null);
const digits = (s: string | undefined, pattern: RegExp): string | null =>
  s === undefined ? null : (pattern.exec(s)?.[1] ?? null);

const PHPBB_NAME = anyOf(
  sel("a.username"),
  sel("a.username-coloured"),
  sel("span.username"),
  sel("span.username-coloured"),
);

const phpbb: EngineReader = {
  engine: "phpbb",
  post: (el) => hasClass(el, "post") && findFirst(el, sel(".postbody")) !== null,
  author: (post) => {
    // prosilver's p.author; issue 30: Bootstrap styles write div.author, "by <strong><a>Name</a></strong>".
    const byline = first(post, ".author", sel(".content"));
    return (
      text(byline === null ? null : findFirst(byline, PHPBB_NAME)) ??
      text(findFirst(post, PHPBB_NAME, sel(".content"))) ??
      // phpBB 3.0: "by <strong><a>Name</a></strong> » date", no username class
      text(byline === null ? null : findFirst(byline, sel("strong")))
    );
  },
  body: (post) => first(post, "div.content"),
  label: (post) => {
    const id = digits(post.attrs["id"], /^p(\d+)$/u);
    return id === null ? null : `p${id}`;
  },
  time: (post) =>
    timeOf(findFirst(post, sel("time"), (e) => hasClass(e, "content"))) ||
    dateAfterRaquo(first(post, ".author")),
};

/** phpBB 2 (subSilver and its kin): the message cell, the one holding span.postbody. */
const phpbb2Message: Test = (e) =>
  e.name === "td" && e.children.some((c) => typeof c !== "string" && hasClass(c, "postbody"));

/**
 * Issue 30: phpBB 2's subSilver lays posts out as rows of one table: the poster's cell (span.name) beside
 * the message cell (span.postbody, quotes as tables between its spans, the signature after a line of
 * underscores in the same span).
 */
const phpbb2: EngineReader = {
  engine: "phpbb",
  post: (el) => {
    if (el.name !== "tr") return false;
    const cells = el.children.filter((c): c is El => typeof c !== "string" && c.name === "td");
    const name = cells.findIndex((c) => findFirst(c, sel("span.name")) !== null);
    return name >= 0 && cells.some((c, i) => i !== name && findFirst(c, phpbb2Message) !== null);
  },
  author: (post) => text(first(post, "span.name")),
  body: (post) => findFirst(post, phpbb2Message),
  label: (post) => {
    const name = first(post, "span.name");
    const anchor = name === null ? null : findFirst(name, sel("a[name]"));
    const id = digits(anchor?.attrs["name"], /^p?(\d+)$/u);
    return id === null ? null : `p${id}`;
  },
  time: (post) => {
    const line = findFirst(
      post,
      (e) =>
        hasClass(e, "postdetails") && /^(?:Добавлено|Posted|Тема сообщения|Post subject):/u.test(textOf(e)),
    );
    if (line === null) return "";
    const t = textOf(line);
    const posted = /^(?:Добавлено|Posted):\s*(.*?)(?:\s+(?:Заголовок сообщения|Post subject):.*)?$/u.exec(t);
    if (posted !== null) return posted[1]!;
    // Forumotion's phpBB 2 skin (forum2x2): "Тема сообщения: <a>Re: День 2</a> Сб Мар 02, 2024 6:03 pm",
    // the date being the text after the subject's link.
    const link = line.children.findIndex((c) => typeof c !== "string" && c.name === "a");
    return link < 0
      ? ""
      : line.children
          .slice(link + 1)
          .filter((c): c is string => typeof c === "string")
          .join(" ")
          .replace(/\s+/gu, " ")
          .trim();
  },
  drop: phpbb2QuoteHeading,
  after: withoutUnderscoreSignature,
};

/** phpBB 3.0–3.2 write "by Name » date" without a <time>. */
function dateAfterRaquo(author: El | null): string {
  if (author === null) return "";
  const t = textOf(author);
  const at = t.lastIndexOf("»");
  return at < 0 ? "" : t.slice(at + 1).trim();
}

const invision: EngineReader = {
  engine: "invision",
  post: (el) =>
    el.name === "article" && classes(el).some((c) => c === "ipsComment" || c === "ipsEntry" || c === "cPost"),
  author: (post) =>
    text(
      authorIn(
        findFirst(
          post,
          anyOf(
            sel(".cAuthorPane_author"),
            sel("aside.ipsComment_author"),
            sel(".ipsComment_author"),
            sel(".ipsEntry__username"),
          ),
        ),
      ),
    ) ?? quoteDataName(findFirst(post, sel("[data-quotedata]"))),
  body: (post) => first(post, "[data-role=commentContent]"),
  label: (post) => {
    const id =
      findFirst(post, sel("[data-commentid]"))?.attrs["data-commentid"] ??
      digits(post.attrs["id"], /^elComment_(\d+)$/u);
    return id === undefined || id === null || !/^\d+$/u.test(id) ? null : `comment-${id}`;
  },
  time: (post) => timeOf(findFirst(post, sel("time"), sel("[data-role=commentContent]"))),
};

/**
 * Issue 30: IP.Board 3.x: div.post_block#post_id_N > div.post_wrap, the poster in h3's span.author (a
 * guest's name in `<span itemprop="creator name">`), p.posted_info with abbr.published and the "#21"
 * link (a.post_id), the text in div.post.entry-content, the signature in div.signature after it.
 */
const invision3: EngineReader = {
  engine: "invision",
  post: (el) =>
    hasClass(el, "post_block") &&
    /^post_id_\d+$/u.test(el.attrs["id"] ?? "") &&
    findFirst(el, sel(".entry-content")) !== null,
  author: (post) => {
    const heading = first(post, "h3");
    if (heading === null) return null;
    const byline =
      findFirst(heading, sel(".author")) ??
      findFirst(heading, (e) => (e.attrs["itemprop"] ?? "").split(/\s+/u).includes("creator"));
    return text(authorIn(byline));
  },
  body: (post) => first(post, ".entry-content"),
  label: (post) => {
    const shown = counter(text(first(post, ".post_id")));
    if (shown !== null) return shown;
    const id = digits(post.attrs["id"], /^post_id_(\d+)$/u);
    return id === null ? null : `entry${id}`;
  },
  time: (post) => timeOf(first(post, "abbr.published", sel(".entry-content"))),
};

/** The author's name in an author pane: its profile link's text, else the pane's text. */
function authorIn(pane: El | null): El | null {
  if (pane === null) return null;
  return findFirst(pane, (e) => e.name === "a" && textOf(e) !== "") ?? pane;
}

function quoteDataName(el: El | null): string | null {
  const data = el?.attrs["data-quotedata"];
  if (data === undefined) return null;
  try {
    const parsed: unknown = JSON.parse(data);
    if (
      typeof parsed === "object" &&
      parsed !== null &&
      "username" in parsed &&
      typeof parsed.username === "string"
    )
      return parsed.username;
  } catch {
    return null;
  }
  return null;
}

const xenforo: EngineReader = {
  engine: "xenforo",
  // XenForo 2's <article class="message message--post">, and XenForo 1's <li class="message" data-author>.
  post: (el) =>
    (el.name === "article" &&
      hasClass(el, "message") &&
      (hasClass(el, "message--post") || "data-author" in el.attrs)) ||
    (el.name === "li" && hasClass(el, "message") && "data-author" in el.attrs),
  author: (post) => post.attrs["data-author"] ?? text(first(post, ".message-name")),
  body: (post) =>
    first(post, ".message-userContent") ?? first(post, ".bbWrapper") ?? first(post, ".messageText"),
  label: (post) => {
    const attribution = findFirst(
      post,
      anyOf(sel(".message-attribution-opposite"), sel(".message-attribution"), sel(".messageMeta")),
    );
    // The "#21" shown: XenForo 2's attribution list, XenForo 1's <a class="postNumber"> in .messageMeta.
    const shown = attribution === null ? null : counter(textOf(attribution));
    if (shown !== null) return shown;
    const id = digits(post.attrs["data-content"] ?? post.attrs["id"], /post-(\d+)$/u);
    return id === null ? null : `post-${id}`;
  },
  time: (post) =>
    timeOf(
      findFirst(
        post,
        anyOf(sel("time"), sel("abbr.DateTime"), sel("span.DateTime")),
        // XenForo 1's div.editDate ("Последнее редактирование: <span class=DateTime>") comes before the meta.
        anyOf(sel(".message-userContent"), sel(".messageText"), sel(".editDate")),
      ),
    ),
  // XenForo 1's quote: the "Нажмите, чтобы раскрыть..." under its text and the ↑ link in its caption.
  drop: anyOf(sel(".bbCodeBlock-expandLink"), sel(".quoteExpand"), sel("a.AttributionLink")),
};

const vbulletin4: EngineReader = {
  engine: "vbulletin",
  post: (el) =>
    el.name === "li" &&
    (hasClass(el, "postcontainer") || hasClass(el, "postbit") || hasClass(el, "postbitlegacy")) &&
    /^post_\d+$/u.test(el.attrs["id"] ?? ""),
  author: (post) => text(first(post, "a.username") ?? first(post, ".username")),
  body: (post) =>
    first(post, "blockquote.postcontent", sel(".after_content")) ??
    findFirst(post, (e) => /^post_message_\d+$/u.test(e.attrs["id"] ?? "")),
  label: (post) =>
    counter(text(first(post, "a.postcounter"))) ??
    (digits(post.attrs["id"], /^post_(\d+)$/u) === null
      ? null
      : `post${digits(post.attrs["id"], /^post_(\d+)$/u)!}`),
  time: (post) => text(first(post, ".postdate")) ?? "",
};

/** vBulletin 3's message: `div#post_message_N`. */
const vb3Message: Test = (e) => /^post_message_\d+$/u.test(e.attrs["id"] ?? "");
/**
 * Issue 30: a customised vBulletin 3 template keeps `table.post#postN` but writes the poster in
 * `dt.author` and the text in its own box (`.message`, `.postbody`), with no post_message_N.
 */
const vb3CustomMessage = anyOf(sel("div.message"), sel("div.postbody"), sel("td.postbody"));
/** A post number's own element in a customised template ("#21"). */
const vb3Number: Test = (e) => classes(e).some((c) => /^(?:post-?number|post-?count|postcounter)$/iu.test(c));

/** vBulletin 3.x: a table per post, `a.bigusername`, `div#post_message_N`, quotes as tables (see isQuoteBox). */
const vbulletin3: EngineReader = {
  engine: "vbulletin",
  post: (el) =>
    el.name === "table" &&
    /^post\d+$/u.test(el.attrs["id"] ?? "") &&
    (findFirst(el, vb3Message) !== null ||
      (hasClass(el, "post") &&
        findFirst(el, sel("dt.author")) !== null &&
        findFirst(el, vb3CustomMessage) !== null)),
  author: (post) =>
    text(first(post, "a.bigusername") ?? first(post, ".bigusername") ?? authorIn(first(post, "dt.author"))),
  body: (post) => findFirst(post, vb3Message) ?? findFirst(post, vb3CustomMessage),
  label: (post) => {
    const count = findFirst(post, (e) => /^postcount\d+$/u.test(e.attrs["id"] ?? ""));
    const shown = count === null ? null : textOf(count).replace(/\D/gu, "");
    if (shown !== null && shown !== "") return `#${shown}`;
    return (
      counter(text(findFirst(post, vb3Number, vb3CustomMessage))) ??
      `post${digits(post.attrs["id"], /^post(\d+)$/u)!}`
    );
  },
  time: (post) => text(first(post, "td.thead") ?? first(post, ".post-date") ?? first(post, ".date")) ?? "",
};

const vbulletin5: EngineReader = {
  engine: "vbulletin",
  post: (el) =>
    hasClass(el, "b-post") &&
    findFirst(el, anyOf(sel(".b-post__content"), sel(".js-post__content-text"))) !== null,
  author: (post) =>
    text(authorIn(first(post, ".b-userinfo__details"))) ?? text(first(post, "[itemprop=author]")),
  body: (post) => first(post, ".js-post__content-text") ?? first(post, ".b-post__content"),
  label: (post) =>
    counter(text(first(post, ".b-post__count"))) ??
    (post.attrs["data-node-id"] === undefined ? null : `post${post.attrs["data-node-id"]}`),
  time: (post) => timeOf(first(post, "time") ?? first(post, ".b-post__timestamp")),
};

/** SMF 2.x's message body: `div.inner#msg_N`. */
const smfInner: Test = (e) => hasClass(e, "inner") && /^msg_\d+$/u.test(e.attrs["id"] ?? "");
/** A line of SMF's small text that shows the post's number ("« Ответ #12 : date »"). */
const smfCounter: Test = (e) => hasClass(e, "smalltext") && counter(shortText(e, 120)) !== null;

const smf: EngineReader = {
  engine: "smf",
  post: (el) =>
    ((hasClass(el, "windowbg") || hasClass(el, "windowbg2")) &&
      // Curve wraps a post in .post_wrapper; issue 30: the Core theme and its descendants do not, and set
      // the poster beside the message (div.floatleft.poster > h4 > a).
      (findFirst(el, sel(".post_wrapper")) !== null ||
        (findFirst(el, sel(".poster")) !== null && findFirst(el, smfInner) !== null))) ||
    // Issue 30: SMF 1.1 lays a post out as table cells, the poster's cell beside div.post.
    (el.name === "td" &&
      (hasClass(el, "windowbg") || hasClass(el, "windowbg2")) &&
      findFirst(el, sel("div.post")) !== null &&
      findFirst(el, sel("td[rowspan]")) !== null),
  author: (post) => {
    const poster = first(post, ".poster");
    if (poster !== null) return text(authorIn(findFirst(poster, sel("h4"))));
    // SMF 1.1: the poster's cell (rowspan 2) holds the name in <b>, a profile link for members.
    const cell = first(post, "td[rowspan]");
    return text(authorIn(cell === null ? null : findFirst(cell, sel("b"))));
  },
  body: (post) => findFirst(post, smfInner) ?? first(post, "div.post"),
  label: (post) => {
    const keyinfo = first(post, ".keyinfo") ?? findFirst(post, smfCounter, sel("div.post"));
    const shown = counter(keyinfo === null ? null : textOf(keyinfo));
    if (shown !== null) return shown;
    const inner = findFirst(post, (e) => /^msg_\d+$/u.test(e.attrs["id"] ?? ""));
    const id = digits(inner?.attrs["id"] ?? post.attrs["id"], /^msg_?(\d+)$/u);
    return id === null ? null : `msg${id}`;
  },
  time: (post) => smfTime(first(post, ".keyinfo") ?? findFirst(post, smfCounter, sel("div.post"))),
};

/** SMF's "« Ответ #12 : 01 Марта 2024, 21:00:00 »" or a 2.1 postinfo link: the date part. */
function smfTime(keyinfo: El | null): string {
  if (keyinfo === null) return "";
  const small = findFirst(keyinfo, anyOf(sel(".smalltext"), sel(".postinfo")));
  const t = textOf(small ?? keyinfo)
    .replace(/[«»]/gu, "")
    .trim();
  const colon = t.indexOf(" :");
  return (colon >= 0 ? t.slice(colon + 2) : t).trim();
}

const discourse: EngineReader = {
  engine: "discourse",
  post: (el) =>
    (el.name === "article" && "data-post-id" in el.attrs) ||
    (hasClass(el, "topic-post") && findFirst(el, sel("article[data-post-id]")) === null) ||
    hasClass(el, "crawler-post"),
  author: (post) =>
    text(firstName(findFirst(post, anyOf(sel(".names"), sel(".creator"))))) ??
    findFirst(post, sel("[data-user-card]"))?.attrs["data-user-card"] ??
    null,
  body: (post) => first(post, ".cooked") ?? first(post, "[itemprop=text]"),
  label: (post) => {
    const n =
      post.attrs["data-post-number"] ??
      findFirst(post, sel("[data-post-number]"))?.attrs["data-post-number"] ??
      digits(
        text(first(post, ".post-count")) ?? text(first(post, "span[itemprop=position]")) ?? undefined,
        /(\d+)/u,
      ) ??
      digits(post.attrs["id"], /^post_(\d+)$/u);
    return n === null || n === undefined ? null : `#${n}`;
  },
  time: (post) => {
    const rel = findFirst(post, sel(".relative-date[data-time]"));
    const ms = rel === null ? NaN : Number(rel.attrs["data-time"]);
    if (Number.isFinite(ms) && ms > 0 && ms < 1e14) return new Date(ms).toISOString();
    return timeOf(findFirst(post, sel("time"), sel(".cooked")));
  },
};

/** Discourse's names block: the username (or full name) link's text. */
function firstName(names: El | null): El | null {
  if (names === null) return null;
  return findFirst(names, anyOf(sel(".username"), sel("[itemprop=name]"))) ?? authorIn(names);
}

/** MyBB 1.8's message: `div.post_body#pid_N`. */
const mybbBody: Test = (e) => hasClass(e, "post_body") && /^pid_\d+$/u.test(e.attrs["id"] ?? "");

/**
 * Issue 30: MyBB 1.8's default postbit: `div.post#post_N`, the poster in div.author_information's
 * span.largetext, the "#21" link in div.post_head, the date in span.post_date (the edit note in its own
 * span.post_edit), the message in div.post_body#pid_N, the signature after it in div.signature.
 */
const mybb: EngineReader = {
  engine: "mybb",
  post: (el) =>
    hasClass(el, "post") && /^post_\d+$/u.test(el.attrs["id"] ?? "") && findFirst(el, mybbBody) !== null,
  author: (post) => {
    const info = first(post, ".author_information");
    return text(authorIn(info === null ? null : (findFirst(info, sel(".largetext")) ?? info)));
  },
  body: (post) => findFirst(post, mybbBody),
  label: (post) => {
    const head = first(post, ".post_head");
    const shown = counter(text(head === null ? null : findFirst(head, sel(".float_right"))));
    if (shown !== null) return shown;
    const id = digits(post.attrs["id"], /^post_(\d+)$/u);
    return id === null ? null : `pid${id}`;
  },
  time: (post) => {
    const date = first(post, ".post_date");
    if (date === null) return "";
    // The date is the span's own text; the edit note is a span inside it.
    return date.children
      .filter((c): c is string => typeof c === "string")
      .join("")
      .trim();
  },
};

/** punBB's post number as "#21": its text holds the number alone ("21") or with the sign ("#21"). */
const numberLabel = (el: El | null): string | null => {
  const n = digits(text(el) ?? undefined, /^#?\s*(\d+)$/u);
  return n === null ? null : `#${n}`;
};
/** "p4501" from an anchor id "p4501". */
const postId = (id: string | undefined): string | null => {
  const n = digits(id, /^p(\d+)$/u);
  return n === null ? null : `p${n}`;
};

/**
 * Issue 30: punBB 1.3/1.4: div.post > div.posthead#pN (h3: span.post-num, span.post-byline with the
 * author's link, the permalink's date) and div.postbody (div.post-author, div.post-entry >
 * div.entry-content with the signature's div.sig-content in it).
 */
const punbb: EngineReader = {
  engine: "punbb",
  post: (el) =>
    hasClass(el, "post") &&
    el.children.some((c) => typeof c !== "string" && hasClass(c, "posthead")) &&
    findFirst(el, sel("div.post-author")) !== null &&
    findFirst(el, sel("div.entry-content")) !== null,
  author: (post) => {
    // A member's profile link; a guest's name in <strong>.
    const byline = first(post, ".post-byline");
    return text(byline === null ? null : findFirst(byline, anyOf(sel("a"), sel("strong"))));
  },
  body: (post) => first(post, "div.entry-content"),
  label: (post) => numberLabel(first(post, ".post-num")),
  time: (post) => text(first(post, ".post-link")) ?? "",
};

/** FluxBB's message box: div.postmsg, not the signature's div.postsignature.postmsg after it. */
const fluxbbMessage: Test = (e) => hasClass(e, "postmsg") && !hasClass(e, "postsignature");

/**
 * Issue 30: FluxBB 1.4/1.5 (punBB 1.2's descendant): div.blockpost#pN > h2 (span.conr "#21", the date's
 * link), div.postleft dl dt strong (the author, a profile link for members), div.postright div.postmsg
 * (the message, its edit note in p.postedit read by its words) and div.postsignature.postmsg.
 */
const fluxbb: EngineReader = {
  engine: "punbb",
  post: (el) => hasClass(el, "blockpost") && findFirst(el, fluxbbMessage) !== null,
  author: (post) => text(authorIn(first(post, "dt"))),
  body: (post) => findFirst(post, fluxbbMessage),
  label: (post) => counter(text(first(post, ".conr"))),
  time: (post) => {
    const heading = first(post, "h2");
    return text(heading === null ? null : findFirst(heading, sel("a"))) ?? "";
  },
};

/**
 * Issue 30: mybb.ru and rusff (a hosted punBB descendant): div.post#pN > h3 > span (strong: the post's
 * number, a.permalink: its date), div.post-author li.pa-author ("Автор: " and the profile link),
 * div.post-body div.post-content, the signature in div.post-sig.
 */
const mybbru: EngineReader = {
  engine: "punbb",
  post: (el) => hasClass(el, "post") && findFirst(el, sel("div.post-content")) !== null,
  author: (post) => {
    const pane = first(post, "li.pa-author");
    return text(pane === null ? null : findFirst(pane, sel("a")));
  },
  body: (post) => first(post, "div.post-content"),
  label: (post) => {
    const heading = first(post, "h3");
    return numberLabel(heading === null ? null : findFirst(heading, sel("strong")));
  },
  time: (post) => text(first(post, "a.permalink")) ?? "",
};

/**
 * Issue 30: Forumotion's (forum2x2's) punBB skin: div.post#pN > div.posthead h2 (the topic's title and the
 * post's link, its date beside), div.postbody div.user (div.user-ident: the author's profile link),
 * div.post-entry div.entry-content; no number shown, so the label is the post's id.
 */
const forumotionPunbb: EngineReader = {
  engine: "punbb",
  post: (el) =>
    hasClass(el, "post") &&
    findFirst(el, sel("div.user-ident")) !== null &&
    findFirst(el, sel("div.entry-content")) !== null,
  author: (post) => text(authorIn(first(post, ".user-ident"))),
  body: (post) => first(post, "div.entry-content"),
  label: (post) => postId(post.attrs["id"]),
  time: (post) => text(first(post, ".post-date")) ?? "",
};

/** uCoz's message: `span.ucoz-forum-post` (older templates: the `td.posttdMessage` cell alone). */
const ucozMessage = anyOf(sel("span.ucoz-forum-post"), sel("td.posttdMessage"));

/**
 * Issue 30: a uCoz forum writes a post as `<tr id="postN">` around a `table.postTable`: the poster's
 * `a.postUser` and "Дата: …, 18:03 | Сообщение # <a class="postNumberLink">21</a>" in the two
 * td.postTdTop cells, the profile in td.postTdInfo, the message in span.ucoz-forum-post inside
 * td.posttdMessage (the edit note and span.signatureView after it, in the cell).
 */
const ucoz: EngineReader = {
  engine: "ucoz",
  post: (el) =>
    ((el.name === "tr" && /^post\d+$/u.test(el.attrs["id"] ?? "")) ||
      (el.name === "table" && hasClass(el, "postTable"))) &&
    findFirst(el, ucozMessage) !== null,
  author: (post) => text(first(post, ".postUser")),
  body: (post) => first(post, "span.ucoz-forum-post") ?? first(post, "td.posttdMessage"),
  label: (post) => {
    const n = digits(text(first(post, ".postNumberLink")) ?? undefined, /^(\d+)$/u);
    if (n !== null) return `#${n}`;
    const id = digits(post.attrs["id"], /^post(\d+)$/u);
    return id === null ? null : `post${id}`;
  },
  time: (post) => {
    const top = findFirst(post, (e) => hasClass(e, "postTdTop") && /Дата:|Date:/u.test(textOf(e)));
    return top === null ? "" : (/(?:Дата|Date):\s*([^|]*)/u.exec(textOf(top))?.[1]?.trim() ?? "");
  },
};

/**
 * Issue 30: Forumotion's (forum2x2) Invision skin: `div.post#pN`, the poster in div.postprofile's
 * `dt strong`, "Тема сообщения: <a>…</a> date" in p.author, the message in div.post-entry (the vote box
 * before it, the edit note and div.signature_div after it).
 */
const forumotionInvision: EngineReader = {
  engine: "invision",
  post: (el) =>
    hasClass(el, "post") &&
    /^p\d+$/u.test(el.attrs["id"] ?? "") &&
    findFirst(el, sel("div.post-entry")) !== null,
  author: (post) => {
    const profile = first(post, ".postprofile");
    const dt = profile === null ? null : findFirst(profile, sel("dt"));
    return text(dt === null ? null : (findFirst(dt, sel("strong")) ?? authorIn(dt)));
  },
  body: (post) => first(post, "div.post-entry"),
  label: (post) => `p${digits(post.attrs["id"], /^p(\d+)$/u)!}`,
  time: (post) => {
    const author = first(post, "p.author");
    if (author === null) return "";
    // The date is the text after the subject's link.
    const last = author.children.at(-1);
    return typeof last === "string" ? last.replace(/\s+/gu, " ").trim() : "";
  },
};

/** The readers, each tried; the one reading the most posts wins, ties in this order. */
export const ENGINE_READERS: readonly EngineReader[] = [
  xenforo,
  invision,
  invision3,
  vbulletin4,
  vbulletin5,
  vbulletin3,
  smf,
  discourse,
  phpbb,
  phpbb2,
  mybb,
  punbb,
  fluxbb,
  mybbru,
  // Before Forumotion's Invision skin, whose div.post#pN > div.post-entry the punBB skin writes too.
  forumotionPunbb,
  ucoz,
  forumotionInvision,
];

/** The posts one reader finds on a page (outermost matches only, each with a body). */
export function readWith(reader: EngineReader, root: El): FoundPost[] {
  const drop = reader.drop === undefined ? NEVER_BODY : anyOf(NEVER_BODY, reader.drop);
  const posts: FoundPost[] = [];
  for (const post of findAll(root, reader.post)) {
    const body = reader.body(post);
    if (body === null) continue;
    posts.push({
      author: (reader.author(post) ?? "").trim(),
      time: reader.time(post),
      body: reader.after === undefined ? bodyBBCode(body, drop) : reader.after(bodyBBCode(body, drop)),
      label: reader.label(post),
    });
  }
  return posts;
}
