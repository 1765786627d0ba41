import type { Lang } from "@forum-mafia/protocol";

/**
 * Refusals in words. The server answers `{code, message, clause}`; its message is exact but English and
 * technical, so the codes a player or GM can meet get a sentence here that says the rule in words (the
 * RULES.md id means nothing to a player and is not shown). An unknown code gets a general sentence.
 */
type Words = { readonly [L in Lang]: string };
export const ERROR_TEXTS: Readonly<Record<string, Words>> = {
  "bad-credentials": { ru: "Неверный ник или пароль.", en: "Wrong nickname or password." },
  "nick-taken": {
    ru: "Этот ник уже занят (или слишком похож на занятый).",
    en: "This nickname is taken (or too close to one that is).",
  },
  "rate-limited": {
    ru: "Слишком много запросов. Подождите минуту.",
    en: "Too many requests. Wait a minute.",
  },
  csrf: { ru: "Запрос отклонён: откройте страницу заново.", en: "Request refused: reload the page." },
  unauthenticated: { ru: "Войдите, чтобы продолжить.", en: "Log in to continue." },
  "not-found": { ru: "Не найдено.", en: "Not found." },
  "not-the-gm": { ru: "Это может только ведущий игры.", en: "Only the game's GM can do this." },
  "not-a-player": { ru: "Вы не играете в этой игре.", en: "You are not playing in this game." },
  "demo/bot": { ru: "Это бот демо-игры.", en: "That is a demo game's bot." },
  reloading: {
    ru: "Игра перезагружается, попробуйте через секунду.",
    en: "The game is reloading; try again in a second.",
  },
  "signup/gm": {
    ru: "Ведущий не может записаться в свою игру.",
    en: "The GM cannot sign up for their own game.",
  },
  "signup/twice": { ru: "Вы уже записаны.", en: "You have already signed up." },
  "signup/none": { ru: "Вы не записаны в эту игру.", en: "You have not signed up for this game." },
  "start/seats": { ru: "Для старта нужны все места за столом.", en: "Every seat must be filled to start." },
  "game/started": { ru: "Игра уже началась.", en: "The game has already started." },
  "game/not-started": { ru: "Игра ещё не началась.", en: "The game has not started yet." },
  "game/not-running": { ru: "Игра сейчас не идёт.", en: "The game is not running." },
  "game/running": { ru: "Будет опубликовано после конца игры.", en: "Published when the game ends." },
  "game/over": { ru: "Игра окончена.", en: "The game is over." },
  "clock/paused": { ru: "Игра на паузе.", en: "The game is paused." },
  "clock/not-paused": { ru: "Игра не на паузе.", en: "The game is not paused." },
  "clock/no-deadline": { ru: "У фазы сейчас нет срока.", en: "The phase has no deadline now." },
  "night/out-of-phase": { ru: "Сейчас не ночь.", en: "It is not night." },
  "night/not-night": { ru: "Сейчас не ночь.", en: "It is not night." },
  "night/intake-closed": { ru: "Приём ночных действий закрыт.", en: "Night actions are closed." },
  "night/intake-open": { ru: "Приём ночных действий ещё открыт.", en: "Night actions are still open." },
  "night/pending": {
    ru: "Итоги ночи ещё не опубликованы.",
    en: "The night's results are not published yet.",
  },
  "night/dead-actor": { ru: "Мёртвые не ходят ночью.", en: "The dead do not act at night." },
  "night/dead-target": { ru: "Этот игрок мёртв.", en: "That player is dead." },
  "night/unknown-target": { ru: "Такого игрока нет за столом.", en: "No such player at the table." },
  "night/unknown-player": { ru: "Такого игрока нет за столом.", en: "No such player at the table." },
  "night/self-target": {
    ru: "Это действие нельзя направить на себя.",
    en: "This act cannot target yourself.",
  },
  "night/repeat-target": {
    ru: "Нельзя выбрать ту же цель две ночи подряд.",
    en: "You cannot pick the same target two nights running.",
  },
  "night/repeat-heal-from": {
    ru: "Нельзя лечить от той же роли две ночи подряд.",
    en: "You cannot heal from the same role two nights running.",
  },
  "night/repeat-serum": {
    ru: "Сыворотку можно дать только один раз.",
    en: "The serum can be used only once.",
  },
  "night/act-not-available": {
    ru: "Это действие вам сейчас недоступно.",
    en: "This act is not open to you now.",
  },
  "night/heal-from-unavailable": {
    ru: "Лечение от роли сейчас недоступно.",
    en: "Healing from a role is not open now.",
  },
  "night/no-action": { ru: "У вашей роли нет ночного действия.", en: "Your role has no night action." },
  "night/lawyer-is-boss": {
    ru: "Адвокат стал боссом и ходит за мафию.",
    en: "The lawyer is now the boss and acts for the mafia.",
  },
  "night/empty-question": { ru: "Вопрос совету пуст.", en: "The council question is empty." },
  "night/mafia-empty": { ru: "Выберите хотя бы одну цель.", en: "Pick at least one target." },
  "night/mafia-target": {
    ru: "Мафия не может выбрать своего.",
    en: "The mafia cannot target one of their own.",
  },
  "night/mafia-combination": {
    ru: "Такое сочетание убийств и запугиваний запрещено.",
    en: "That mix of kills and intimidations is not allowed.",
  },
  "night/mafia-too-many-kills": {
    ru: "Слишком много убийств на эту ночь.",
    en: "Too many kills for tonight.",
  },
  "night/too-many-intimidations": {
    ru: "Слишком много запугиваний на эту ночь.",
    en: "Too many intimidations for tonight.",
  },
  "night/no-double-kill-at-three": {
    ru: "Втроём мафия убивает только одного.",
    en: "With three left the mafia kill only one.",
  },
  "night/duplicate-target": { ru: "Одна цель выбрана дважды.", en: "The same target is picked twice." },
  "council/not-listed": {
    ru: "В игре без ведущего совет отвечает только на вопросы из списка: выберите один из них.",
    en: "In a game without a GM the council answers only the questions on the list: choose one of them.",
  },
  reason: {
    ru: "Этот ответ не совпадает с ответом по правилам: укажите причину.",
    en: "This answer differs from the rules' answer: give a reason.",
  },
  "night/council-unanswered": {
    ru: "Сначала ответьте на вопрос совета.",
    en: "Answer the council question first.",
  },
  "night/draft-blocked": {
    ru: "Итоги пока нельзя опубликовать.",
    en: "The results cannot be published yet.",
  },
  "night/roll-needed": { ru: "Нужно решение по броску.", en: "A roll needs a decision." },
  "day/out-of-phase": { ru: "Сейчас не день.", en: "It is not day." },
  "vote/out-of-phase": { ru: "Голосовать можно только днём.", en: "You can vote only by day." },
  "vote/day-closed": { ru: "День уже закрыт досрочно.", en: "The day has already closed early." },
  "vote/dead-voter": { ru: "Мёртвые не голосуют.", en: "The dead do not vote." },
  "vote/dead-target": { ru: "Нельзя голосовать за мёртвого.", en: "You cannot vote for a dead player." },
  "vote/silenced": { ru: "Сегодня вы лишены возможности голосовать.", en: "Today you cannot vote." },
  "vote/self": { ru: "Нельзя голосовать за себя.", en: "You cannot vote for yourself." },
  "vote/unknown-target": { ru: "Такого игрока нет за столом.", en: "No such player at the table." },
  "vote/unknown-player": { ru: "Такого игрока нет за столом.", en: "No such player at the table." },
  "vote/early-final": { ru: "Голос «досрочно» уже не изменить.", en: "An early vote cannot be changed." },
  "post/dead": { ru: "Мёртвые не пишут в тему игры.", en: "The dead do not post in the game thread." },
  "post/hidden": { ru: "Этот пост уже скрыт.", en: "This post is already hidden." },
  "post/not-hidden": { ru: "Этот пост не скрыт.", en: "This post is not hidden." },
  // Issue 31, G5: the GM's measures on a flagged post or chat message.
  "flag/measured": {
    ru: "Эта мера уже принята (а «Без мер» можно выбрать, только пока мер не было).",
    en: "This measure has already been taken (and “No measure” only while there was none).",
  },
  "flag/not-a-post": {
    ru: "Скрыть можно только пост в теме: сообщение в чате не скрывается.",
    en: "Only a post in the thread can be hidden: a chat message cannot.",
  },
  "flag/no-strikes": {
    ru: "В этой игре страйки за мат и оскорбления не даются: так задано при создании игры.",
    en: "This game gives no strikes for swearing and insults: it was set so when the game was created.",
  },
  "gm/strike-dead": {
    ru: "Этот игрок уже выбыл: страйк не дать.",
    en: "That player is already out: no strike.",
  },
  "channel/dead": { ru: "Мёртвые не пишут в этот чат.", en: "The dead cannot write in this chat." },
  "channel/not-member": { ru: "Вы не участник этого чата.", en: "You are not a member of this chat." },
  "gm/modkill-dead": { ru: "Этот игрок уже мёртв.", en: "That player is already dead." },
  "gm/replace-dead": { ru: "Мёртвого игрока не заменяют.", en: "A dead player is not replaced." },
  "gm/unknown-player": { ru: "Такого игрока нет за столом.", en: "No such player at the table." },
  "replace/dead": { ru: "Мёртвого игрока не заменяют.", en: "A dead player is not replaced." },
  "replace/gm": { ru: "Ведущий не может заменить игрока.", en: "The GM cannot take a seat." },
  "replace/playing": { ru: "Этот пользователь уже играет здесь.", en: "That user already plays here." },
  nick: {
    ru: "Такой ник нельзя: от 2 до 24 знаков — русские или латинские буквы, цифры, пробел, «_», «-» и «.», в начале буква или цифра.",
    en: "That nickname is not allowed: 2 to 24 characters — Russian or Latin letters, digits, a space, _, - and ., starting with a letter or a digit.",
  },
  timeZone: { ru: "Такого часового пояса нет.", en: "No such time zone." },
  rolls: { ru: "Выберите хотя бы один бросок.", en: "Choose at least one roll." },
  "demo/private": {
    ru: "Демо-игра принадлежит своему игроку: начните свою.",
    en: "A demo game belongs to its player: start one of your own.",
  },
  "store/unknown": {
    ru: "База данных не подтвердила изменение вовремя: возможно, оно сохранено. Обновите страницу, прежде чем повторить.",
    en: "The database did not confirm the change in time: it may have been saved. Reload the page before you retry.",
  },
  "store/unavailable": {
    ru: "Не удалось сохранить игру: обновите страницу и попробуйте ещё раз.",
    en: "The game could not be saved: reload the page and try again.",
  },
  "stream/too-many": {
    ru: "Открыто слишком много вкладок с играми: закройте лишние.",
    en: "Too many game tabs are open: close some.",
  },
  "tools/busy": {
    ru: "Дождитесь ответа на предыдущий запрос.",
    en: "Wait for the answer to the previous request.",
  },
  "tools/overloaded": {
    ru: "Инструменты сейчас заняты: попробуйте через минуту.",
    en: "The tools are busy now: try again in a minute.",
  },
  "tools/too-slow": {
    ru: "Файл слишком большой, чтобы обработать его вовремя: пришлите меньше (например, посты одного дня).",
    en: "The file is too large to process in time: send less (one day's posts, say).",
  },
  "tools/cancelled": { ru: "Запрос отменён.", en: "The request was cancelled." },
  FST_ERR_CTP_BODY_TOO_LARGE: { ru: "Файл слишком большой.", en: "The file is too large." },
  internal: {
    ru: "На сервере что-то сломалось. Попробуйте ещё раз.",
    en: "Something broke on the server. Try again.",
  },
  "estimate/superseded": {
    ru: "Баланс уже считается для другого расклада — например, в другой вкладке.",
    en: "The balance is being counted for another setup, in another tab perhaps.",
  },
  "estimate/busy": {
    ru: "Сервер сейчас занят другими расчётами баланса. Попробуйте через несколько секунд.",
    en: "The server is busy counting other balances. Try again in a few seconds.",
  },
  "estimate/failed": {
    ru: "Баланс этого расклада не удалось посчитать: ошибка на сервере. Повтор сейчас не поможет; измените расклад или сообщите нам.",
    en: "The balance of this setup could not be counted: a server error. Trying again now will not help; change the setup or tell us.",
  },
  "notebook/ended": {
    ru: "Игра окончена: в блокнот больше ничего не вносится.",
    en: "The game is over: nothing more goes into the notebook.",
  },
  "notebook/not-night": {
    ru: "Сейчас день: ночные ходы вносятся ночью.",
    en: "It is day: night moves are entered by night.",
  },
  "notebook/not-day": {
    ru: "Сейчас ночь: голоса вносятся днём.",
    en: "It is night: votes are entered by day.",
  },
  "notebook/no-council": {
    ru: "Этой ночью мафия не задавала вопрос совету.",
    en: "The mafia asked the council nothing tonight.",
  },
  "notebook/not-ended": {
    ru: "Опубликовать можно только после конца игры.",
    en: "It can be published only after the game ends.",
  },
  "notebook/changed": {
    ru: "Блокнот изменился в другой вкладке: обновите страницу и внесите это ещё раз.",
    en: "The notebook was changed in another tab: reload the page and enter this again.",
  },
  "notebooks/full": {
    ru: "Блокнотов уже 100: удалите старый, чтобы завести новый.",
    en: "You already have 100 notebooks: delete an old one to start a new one.",
  },
  http: {
    ru: "Сервер ответил ошибкой. Попробуйте ещё раз.",
    en: "The server answered with an error. Try again.",
  },
};

/**
 * A refusal with the code `invalid` names the field that is wrong in English ("replay: file: phases:
 * Invalid input…", "post 3 in thread is not an object"): the field picks the sentence. The first match wins.
 */
const INVALID_FIELDS: readonly (readonly [RegExp, Words])[] = [
  [
    // Issue 28: a title or a name holding a bidi control (U+202E and the like), whatever the field.
    /: contains a bidirectional control character/,
    {
      ru: "В тексте есть невидимый символ, который переворачивает или переставляет буквы (например, U+202E). Уберите его: наберите текст заново.",
      en: "The text holds an invisible character that turns letters around or reorders them (such as U+202E). Remove it: type the text again.",
    },
  ],
  [
    /^replay: no finished phase/,
    {
      ru: "В реплее нет ни одной законченной фазы: итоги писать не о чем.",
      en: "The replay has no finished phase: there are no results to write.",
    },
  ],
  [
    /^replay\b/,
    {
      ru: "Файл реплея не подходит: это не реплей игры, или в нём ошибка. Проверьте, что это файл «Скачать файл реплея» со страницы игры.",
      en: "The replay file does not fit: it is not a game's replay, or it has a mistake. Check that it is the file from the game page's “Download the replay file”.",
    },
  ],
  [
    /^(thread\b|post \d+ in )/,
    {
      ru: "Файл темы не подходит: нужен список постов, у каждого автор и текст.",
      en: "The thread file does not fit: it must be a list of posts, each with an author and a text.",
    },
  ],
  [/^the player list .* is empty/, { ru: "Список игроков пуст.", en: "The player list is empty." }],
  [
    /^(silenced player|silenced\b)/,
    {
      ru: "Среди лишённых голоса есть ник, которого нет в списке игроков.",
      en: "A player without a vote is not in the player list.",
    },
  ],
  [/^players\b/, { ru: "Список игроков заполнен неверно.", en: "The player list is not right." }],
  [/^day\b/, { ru: "Номер дня — целое число от 1 до 999.", en: "The day is a whole number from 1 to 999." }],
  [/^gm\b/, { ru: "Ник ведущего слишком длинный.", en: "The GM's nickname is too long." }],
  [
    /^(text|body\.text)\b/,
    { ru: "Сообщение пустое или слишком длинное.", en: "The message is empty or too long." },
  ],
  [
    /^reason\b/,
    { ru: "Укажите причину (не длиннее 500 знаков).", en: "Give a reason (up to 500 characters)." },
  ],
  [
    /^(nick|password)\b/,
    { ru: "Ник или пароль заполнены неверно.", en: "The nickname or password is not right." },
  ],
  [
    /^(setup\.)?roles\b/,
    {
      ru: "Расклад не годится: нужен хотя бы один игрок города и мафия или маньяк, каждая роль — не больше одного раза, мирных — сколько угодно.",
      en: "The setup does not work: it needs a town player and the mafia or the maniac, each role at most once, citizens any number.",
    },
  ],
  [
    /^(setup\.)?options\b/,
    {
      ru: "Правила расклада заполнены неверно: пороги — целые числа от 0 до 99.",
      en: "The setup's rules are not right: thresholds are whole numbers from 0 to 99.",
    },
  ],
  [
    /^deal\.hand\b/,
    {
      ru: "Раздайте ровно роли расклада: каждую столько раз, сколько она в нём есть.",
      en: "Deal exactly the setup's roles: each as many times as the setup has it.",
    },
  ],
  [
    // Issue 31: G5's settings of a new game (hiding with a strike on the third breach needs strikes).
    /^g5\b/,
    {
      ru: "Настройки правила о мате и оскорблениях не годятся: при скрытии поста с третьим нарушением страйки должны быть разрешены.",
      en: "The swearing and insults settings do not work: hiding posts with a strike on the third breach needs strikes allowed.",
    },
  ],
  [/^name\b/, { ru: "Имя пустое или слишком длинное.", en: "The name is empty or too long." }],
  [/^title\b/, { ru: "Название пустое или слишком длинное.", en: "The title is empty or too long." }],
];

/** Any other input the server refused as malformed. */
const INVALID_ANY: Words = {
  ru: "Сервер не принял данные: проверьте, что всё заполнено верно.",
  en: "The server did not accept the input: check that everything is filled in right.",
};

/** Words for a refusal: by its code, and for a malformed input by the field it names. */
export function refusalWords(code: string, message: string, lang: Lang): string | null {
  const words = ERROR_TEXTS[code];
  if (words) return words[lang];
  if (code !== "invalid") return null;
  return (INVALID_FIELDS.find(([re]) => re.test(message))?.[1] ?? INVALID_ANY)[lang];
}
