/**
 * G5 (issue 31), worked by hand from RULES.md's G5 («swearing and insults are forbidden»): a thread of five
 * posts. Петя's (post 1, p202) swears behind a star (х*й); Маша's (post 2, p203) calls Коля a «дебил» to his
 * face (an insult aimed at someone); Вася's and Гость's hold only words a careless checker would flag
 * (употреблять, команда, страхуй), and Коля's quotes Петя's мат (a quote is someone else's words). Exactly
 * two flags, at the posts' indices and forum labels.
 */
const G5_POSTS: readonly (readonly [id: number, author: string, bbcode: string, html: string])[] = [
  [
    201,
    "Вася",
    "Команда города, надо употреблять логику. Я за [color=red]Петю[/color]",
    'Команда города, надо употреблять логику. Я за <span style="color: #FF0000">Петю</span>',
  ],
  [
    202,
    "Петя",
    "Да х*й там, я за [color=red]Колю[/color]",
    'Да х*й там, я за <span style="color: #FF0000">Колю</span>',
  ],
  [203, "Маша", "Коля, ты дебил", "Коля, ты дебил"],
  [
    204,
    "Коля",
    '[quote="Петя"]Да х*й там[/quote] Не матерись, страхуй лучше',
    "<blockquote><div><cite>Петя писал(а):</cite>Да х*й там</div></blockquote> Не матерись, страхуй лучше",
  ],
  [205, "Гость", "Употреблять такие слова нельзя, команда!", "Употреблять такие слова нельзя, команда!"],
];
export const G5_BBCODE = G5_POSTS.map(
  ([id, author, bbcode]) =>
    `[quote="${author}" post_id=${id} time=1764493200 user_id=${id}]${bbcode}[/quote]`,
).join("\n");
/** The same posts as a phpBB page shows them. */
export const G5_HTML = `<div id="page-body"><div class="topic">${G5_POSTS.map(
  ([id, author, , html]) =>
    `<div id="p${id}" class="post bg2"><div class="inner"><div class="postbody"><p class="author">by <a class="username">${author}</a> » 3 дек 2026, 10:${id % 100}</p><div class="content">${html}</div></div></div></div>`,
).join("\n")}</div></div>`;
export const G5_FLAGS = [
  { post: 1, label: "p202", author: "Петя", kind: "obscene", words: ["х*й"] },
  { post: 2, label: "p203", author: "Маша", kind: "insult", words: ["дебил"] },
];
