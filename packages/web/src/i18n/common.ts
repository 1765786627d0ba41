/**
 * Server-sent prose (a notice, the GM's explanation of a night) ends its sentences with the RULES.md
 * clause ids, "(G10)", "(T3b)": they mean nothing to a player and the sentence already says the rule, so
 * the app shows the sentence without them.
 */
export const withoutClauseIds = (text: string): string =>
  text.replace(/\s*\((?:[A-Z]\d+[a-z]?)(?:,\s*[A-Z]\d+[a-z]?)*\)/g, "");

/** Words every screen shares. Russian is the source; English must have the same keys (checked by tsc). */
export const ru = {
  appName: "Форумная мафия",
  lang: { label: "Язык", ru: "Русский", en: "English" },
  nav: {
    lobby: "Лобби",
    tools: "Инструменты ведущего",
    toolsShort: "Инструменты",
    login: "Войти",
    register: "Регистрация",
    logout: "Выйти",
  },
  loading: "Загрузка…",
  skipToContent: "К содержимому",
  retry: "Повторить",
  save: "Сохранить",
  cancel: "Отмена",
  send: "Отправить",
  close: "Закрыть",
  gm: "Ведущий",
  /** Said by a screen reader before a vote colour in a post (withVoteWords): the colour is never the only mark. */
  voteWords: { red: "красный", blue: "синий" },
  phase: {
    night: (n: number) => `Ночь ${n}`,
    day: (n: number) => `День ${n}`,
    signup: "Набор игроков",
    ended: "Игра окончена",
  },
  countdown: {
    left: (t: string) => `осталось ${t}`,
    until: (t: string) => `до ${t}`,
    paused: "Игра на паузе",
    review: "Ведущий проверяет итоги ночи",
    over: "время вышло",
  },
  units: { d: "д", h: "ч", m: "мин", s: "с" },
  errors: {
    network: "Нет связи с сервером. Проверьте подключение и попробуйте ещё раз.",
    unauthenticated: "Войдите, чтобы продолжить.",
    unknown: "Не получилось: сервер не выполнил запрос. Попробуйте ещё раз.",
  },
};

export const en: typeof ru = {
  appName: "Forum Mafia",
  lang: { label: "Language", ru: "Русский", en: "English" },
  nav: {
    lobby: "Lobby",
    tools: "GM tools",
    toolsShort: "Tools",
    login: "Log in",
    register: "Sign up",
    logout: "Log out",
  },
  loading: "Loading…",
  skipToContent: "Skip to content",
  retry: "Retry",
  save: "Save",
  cancel: "Cancel",
  send: "Send",
  close: "Close",
  gm: "GM",
  voteWords: { red: "red", blue: "blue" },
  phase: {
    night: (n: number) => `Night ${n}`,
    day: (n: number) => `Day ${n}`,
    signup: "Signups",
    ended: "Game over",
  },
  countdown: {
    left: (t: string) => `${t} left`,
    until: (t: string) => `until ${t}`,
    paused: "The game is paused",
    review: "The GM is reviewing the night's results",
    over: "time is up",
  },
  units: { d: "d", h: "h", m: "min", s: "s" },
  errors: {
    network: "Cannot reach the server. Check your connection and try again.",
    unauthenticated: "Log in to continue.",
    unknown: "That did not work: the server did not carry out the request. Try again.",
  },
};
