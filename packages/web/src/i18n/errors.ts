import type { Lang } from "@forum-mafia/protocol";

/**
 * Refusals in words. The server answers `{code, message, clause}`; its message is exact but English and
 * technical, so the codes a player or GM can meet get a sentence here, and the clause is shown beside it
 * (RULES.md ids). An unknown code falls back to the server's own message.
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
  "channel/dead": { ru: "Мёртвые не пишут в этот чат.", en: "The dead cannot write in this chat." },
  "channel/not-member": { ru: "Вы не участник этого чата.", en: "You are not a member of this chat." },
  "gm/modkill-dead": { ru: "Этот игрок уже мёртв.", en: "That player is already dead." },
  "gm/replace-dead": { ru: "Мёртвого игрока не заменяют.", en: "A dead player is not replaced." },
  "gm/unknown-player": { ru: "Такого игрока нет за столом.", en: "No such player at the table." },
  "replace/dead": { ru: "Мёртвого игрока не заменяют.", en: "A dead player is not replaced." },
  "replace/gm": { ru: "Ведущий не может заменить игрока.", en: "The GM cannot take a seat." },
  "replace/playing": { ru: "Этот пользователь уже играет здесь.", en: "That user already plays here." },
};
