import type { Faction } from "@forum-mafia/protocol/roles";
import type { GameOptions, ThresholdName } from "@forum-mafia/protocol/setups";
import { useLang } from "./index.tsx";
import { ruPlural } from "./me.ts";

/**
 * Issue 17: the setup editor of the new-game page and the setup post of a game's page. Russian first;
 * English has the same keys. Only the screens that show a setup import this file (the new-game page and
 * the game page load on demand), so these words do not weigh on the lobby's first load. Role names are
 * not here: they come from the server (`roleNames`), worded once for the whole app.
 *
 * Each threshold is said as the rule it changes (RULES.md S3 and the clauses it names), with the number
 * in place, in the words a forum GM would write in a setup post.
 */

const ruPlayers = (n: number): string => `${n} ${ruPlural(n, "игрок", "игрока", "игроков")}`;
const enPlayers = (n: number): string => `${n} ${n === 1 ? "player" : "players"}`;
const ruGames = (n: number): string => `${n} ${ruPlural(n, "партии", "партий", "партий")}`;
/** "4,3 дня", "5 дней": a mean length, to a tenth. */
function ruDays(d: number): string {
  const r = Math.round(d * 10) / 10;
  if (!Number.isInteger(r)) return `${r.toLocaleString("ru-RU")} дня`;
  return `${r} ${ruPlural(r, "день", "дня", "дней")}`;
}
const pct = (share: number): number => Math.round(share * 100);
/** A small share to a tenth of a percent: «0,1», «2,5» (Russian), "0.1" (English). */
const pct1 = (share: number, lang: "ru" | "en"): string => {
  const r = Math.round(share * 1000) / 10;
  return lang === "ru" ? r.toLocaleString("ru-RU") : String(r);
};
/** «со 2-го дня» (со второго), «с 3-го дня». */
const ruFromDay = (n: number): string => `${n === 2 ? "со" : "с"} ${n}-го дня`;

/** What a threshold's field says: its label, and the rule with the number in place. */
interface ThresholdWords {
  readonly label: string;
  readonly explain: (n: number) => string;
  /** The line of the setup post. */
  readonly post: (n: number) => string;
}

export const ru = {
  heading: "Расклад",
  lead: "Роли, правила и пороги. Баланс пересчитывается ботами при каждом изменении.",
  presets: "Готовые расклады",
  presetPick: (name: string) => `Взять расклад «${name}»`,
  // Issue 32: each preset's balance, shown under its name at once (figures kept with the code).
  presetOdds: (town: number, mafia: number, maniac: number) =>
    `Город ${pct(town)}% · Мафия ${pct(mafia)}% · Маньяк ${pct(maniac)}%`,
  presetOddsLabel: (town: number, mafia: number, maniac: number) =>
    `Баланс по партиям ботов: город побеждает в ${pct(town)}% партий, мафия — в ${pct(mafia)}%, маньяк — в ${pct(maniac)}%.`,
  current: "выбран",
  saved: {
    heading: "Мои расклады",
    empty: "Сохранённых раскладов пока нет.",
    name: "Имя расклада",
    nameHint: "Сохраните текущий расклад, чтобы взять его в следующий раз. То же имя — замена.",
    save: "Сохранить расклад",
    saving: "Сохраняем…",
    savedAs: (name: string) => `Расклад «${name}» сохранён.`,
    nameEmpty: "Введите имя расклада.",
    pick: (name: string) => `Взять мой расклад «${name}»`,
    remove: "Удалить",
    removeLabel: (name: string) => `Удалить расклад «${name}»`,
    removed: (name: string) => `Расклад «${name}» удалён.`,
  },
  roles: "Роли",
  rolesLead: "Каждая роль — не больше одного раза, мирных жителей — сколько угодно.",
  factions: { mafia: "Мафия", maniac: "Маньяк (сам за себя)", town: "Город" } satisfies Record<
    Faction,
    string
  >,
  citizens: "Мирные жители",
  fewer: "Убрать мирного жителя",
  more: "Добавить мирного жителя",
  players: (n: number) => ruPlayers(n),
  playerCount: "Игроков в партии",
  maxSeats: (n: number) => `Больше ${n} игроков нельзя.`,
  rolesLoading: "Загружаем названия ролей…",
  rolesFailed: "Не удалось загрузить названия ролей.",
  faults: {
    "setup/no-players": "В раскладе нет ни одной роли: добавьте игроков.",
    "setup/no-town": "В раскладе нет города: добавьте мирного жителя или роль города.",
    "setup/no-opponent":
      "В раскладе нет ни мафии, ни маньяка: городу не с кем играть. Отметьте хотя бы одну роль мафии или маньяка.",
    duplicate: (role: string) =>
      `Роль «${role}» встречается дважды: каждая роль, кроме мирного жителя, — не больше одного раза.`,
  },
  faultCreate: "Пока расклад не исправлен, игру не создать.",
  rules: "Правила",
  earlyClose: {
    legend: "Досрочное закрытие дня",
    lead: "Голос со словом «досрочно» нельзя поменять. День закрывается сразу, когда досрочно проголосовали…",
    majority: "Больше половины",
    majorityHint: "…больше половины игроков с правом голоса.",
    all: "Все",
    allHint: "…все игроки с правом голоса.",
  },
  strikes: {
    legend: "Страйки",
    lead: "Страйк — за пропущенное голосование или ночной ход; второй страйк — модкилл в конце фазы.",
    shared: "Общие",
    sharedHint: "Пропуски голосований и ночных ходов считаются вместе.",
    separate: "Раздельные",
    separateHint: "Голосования и ночные ходы считаются отдельно: модкилл за второй страйк одного вида.",
  },
  thresholds: "Пороги",
  thresholdsLead: "Целые числа от 0 до 99. «Живых» — в начале ночи или дня.",
  thresholdRange: (label: string, max: number) => `«${label}»: целое число от 0 до ${max}.`,
  threshold: {
    revealAbove: {
      label: "Роли вскрываются, пока живых больше",
      explain: (n) =>
        `Роль погибшего объявляется, пока живых больше ${n}; при ${n} и меньше смерти идут без ролей. Лечение от роли — тоже только пока живых больше ${n}.`,
      post: (n) => `Роли погибших вскрываются, пока живых больше ${n}; лечение от роли — тоже только тогда.`,
    },
    threeIntimidationsFrom: {
      label: "Три запугивания — при живых от",
      explain: (n) => `Босс запугивает троих, только если живых ${n} или больше; иначе не больше двоих.`,
      post: (n) => `Три запугивания за ночь — при ${n} живых и больше, иначе не больше двух.`,
    },
    serumRepeatBelow: {
      label: "Сыворотка не две ночи подряд — при живых меньше",
      explain: (n) => `Когда живых меньше ${n}, доктор не может давать сыворотку две ночи подряд.`,
      post: (n) => `Сыворотку нельзя давать две ночи подряд, когда живых меньше ${n}.`,
    },
    lapseAt: {
      label: "Запреты на повтор снимаются при живых",
      explain: (n) =>
        `Когда живых ровно ${n}, громила, девочка, шахид и доктор могут выбрать ту же цель, что прошлой ночью, а босс не может убить двоих.`,
      post: (n) =>
        `При ${n} живых запреты на ту же цель две ночи подряд снимаются, а босс не может убить двоих.`,
    },
    earlyFromDay: {
      label: "«Досрочно» действует с дня",
      explain: (n) => `Слово «досрочно» в голосе действует ${ruFromDay(n)}; раньше такой голос — обычный.`,
      post: (n) => `«Досрочно» действует ${ruFromDay(n)}.`,
    },
  } satisfies Record<ThresholdName, ThresholdWords>,
  optionPost: {
    /** The setup post's lines for the two [reading] options. */
    earlyClose: {
      majority: "День закрывается досрочно, когда «досрочно» проголосовали больше половины.",
      all: "День закрывается досрочно, только когда «досрочно» проголосовали все.",
    } satisfies Record<GameOptions["earlyClose"], string>,
    strikes: {
      shared: "Страйки общие: пропуски голосований и ночных ходов считаются вместе.",
      separate: "Страйки раздельные: голосования и ночные ходы считаются отдельно.",
    } satisfies Record<GameOptions["strikes"], string>,
  },
  post: {
    heading: (n: number) => `Расклад: ${ruPlayers(n)}`,
    factions: { mafia: "Мафия", maniac: "Сам за себя", town: "Город" } satisfies Record<Faction, string>,
    summary: "Роли и правила этой партии",
    roles: "Роли в игре",
    rules: "Правила",
  },
  estimate: {
    heading: "Баланс",
    lead: "Как часто побеждает каждая сторона, если этот расклад играют боты.",
    pending: "считаем…",
    waiting: "Исправьте расклад — тогда посчитаем баланс.",
    failed: "Не удалось посчитать баланс.",
    busy: "Сервер сейчас занят другими расчётами. Попробуйте через несколько секунд.",
    guest: "Войдите, чтобы увидеть баланс.",
    retry: "Посчитать ещё раз",
    sides: { town: "Город", mafia: "Мафия", maniac: "Маньяк", draw: "Ничья" },
    rate: (rate: number, low: number, high: number) => `${pct(rate)}% (${pct(low)}–${pct(high)}%)`,
    rateLabel: (side: string, rate: number, low: number, high: number) =>
      `${side}: ${pct(rate)}%, от ${pct(low)} до ${pct(high)}%`,
    length: "Средняя длина",
    days: (d: number) => ruDays(d),
    from: (games: number) =>
      `по ${ruGames(games)} ботов; доли — от всех партий, в скобках — 95‑процентный интервал`,
    // Issue 28: партии, которые не закончились за отведённые дни (зависли), — отдельной цифрой.
    stalledLabel: (rate: number, low: number, high: number) =>
      `Не закончились: ${pct1(rate, "ru")}% (${pct1(low, "ru")}–${pct1(high, "ru")}%)`,
    stalled: (stalled: number, games: number, days: number) =>
      `${stalled} из ${ruGames(games)} не закончились и за ${days} ${ruPlural(days, "день", "дня", "дней")}: ` +
      "этот расклад позволяет игре идти без смертей и повешений. В живой игре ведущему пришлось бы вмешаться: " +
      "дать модкилл или рассчитывать на страйки за пропуски.",
    noneStalled: (days: number) =>
      `Зависших партий нет: все закончились меньше чем за ${days} ${ruPlural(days, "день", "дня", "дней")}.`,
  },
};

export const en: typeof ru = {
  heading: "Setup",
  lead: "Roles, rules and thresholds. Bots recount the balance on every change.",
  presets: "Ready-made setups",
  presetPick: (name: string) => `Use the setup “${name}”`,
  presetOdds: (town: number, mafia: number, maniac: number) =>
    `Town ${pct(town)}% · Mafia ${pct(mafia)}% · Maniac ${pct(maniac)}%`,
  presetOddsLabel: (town: number, mafia: number, maniac: number) =>
    `Balance from bot games: the town wins ${pct(town)}% of games, the mafia ${pct(mafia)}%, the maniac ${pct(maniac)}%.`,
  current: "chosen",
  saved: {
    heading: "My setups",
    empty: "No saved setups yet.",
    name: "Setup name",
    nameHint: "Save the current setup to use it next time. The same name replaces it.",
    save: "Save the setup",
    saving: "Saving…",
    savedAs: (name: string) => `Setup “${name}” saved.`,
    nameEmpty: "Enter a name for the setup.",
    pick: (name: string) => `Use my setup “${name}”`,
    remove: "Delete",
    removeLabel: (name: string) => `Delete the setup “${name}”`,
    removed: (name: string) => `Setup “${name}” deleted.`,
  },
  roles: "Roles",
  rolesLead: "Each role at most once; citizens as many as you like.",
  factions: { mafia: "Mafia", maniac: "Maniac (plays alone)", town: "Town" },
  citizens: "Citizens",
  fewer: "One citizen fewer",
  more: "One more citizen",
  players: (n: number) => enPlayers(n),
  playerCount: "Players in the game",
  maxSeats: (n: number) => `No more than ${n} players.`,
  rolesLoading: "Loading the role names…",
  rolesFailed: "Could not load the role names.",
  faults: {
    "setup/no-players": "The setup has no roles: add players.",
    "setup/no-town": "The setup has no town: add a citizen or a town role.",
    "setup/no-opponent":
      "The setup has neither mafia nor the maniac: the town has nobody to play against. Tick at least one mafia role or the maniac.",
    duplicate: (role: string) => `“${role}” appears twice: every role but the citizen at most once.`,
  },
  faultCreate: "The game cannot be created until the setup is fixed.",
  rules: "Rules",
  earlyClose: {
    legend: "Closing the day early",
    lead: "A vote marked “early” cannot be changed. The day closes at once when early votes come from…",
    majority: "More than half",
    majorityHint: "…more than half of the players who may vote.",
    all: "Everyone",
    allHint: "…every player who may vote.",
  },
  strikes: {
    legend: "Strikes",
    lead: "A strike for a missed vote or night action; the second strike is a modkill at the end of the phase.",
    shared: "Shared",
    sharedHint: "Missed votes and missed night actions count together.",
    separate: "Separate",
    separateHint: "Votes and night actions count apart: a modkill for a second strike of one kind.",
  },
  thresholds: "Thresholds",
  thresholdsLead: "Whole numbers from 0 to 99. “Alive” means at the start of the night or day.",
  thresholdRange: (label: string, max: number) => `“${label}”: a whole number from 0 to ${max}.`,
  threshold: {
    revealAbove: {
      label: "Roles revealed while alive is above",
      explain: (n) =>
        `A dead player's role is announced while more than ${n} are alive; at ${n} or fewer deaths come without roles. Healing from a role only while more than ${n} are alive, too.`,
      post: (n) =>
        `Roles of the dead are revealed while more than ${n} are alive; healing from a role only then, too.`,
    },
    threeIntimidationsFrom: {
      label: "Three intimidations from alive",
      explain: (n) =>
        `The boss may intimidate three only when ${n} or more are alive; otherwise two at most.`,
      post: (n) => `Three intimidations a night with ${n} or more alive, otherwise two at most.`,
    },
    serumRepeatBelow: {
      label: "No serum twice in a row below alive",
      explain: (n) => `With fewer than ${n} alive, the doctor may not give the serum two nights running.`,
      post: (n) => `No serum two nights running while fewer than ${n} are alive.`,
    },
    lapseAt: {
      label: "Repeat limits lapse at alive",
      explain: (n) =>
        `With exactly ${n} alive, the thug, the girl, the shahid and the doctor may pick last night's target again, and the boss may not kill two.`,
      post: (n) => `With ${n} alive, the same-target limits lapse and the boss may not kill two.`,
    },
    earlyFromDay: {
      label: "“Early” counts from day",
      explain: (n) => `The word “early” in a vote counts from day ${n}; before that it is an ordinary vote.`,
      post: (n) => `“Early” votes count from day ${n}.`,
    },
  },
  optionPost: {
    earlyClose: {
      majority: "The day closes early when more than half vote “early”.",
      all: "The day closes early only when everyone votes “early”.",
    },
    strikes: {
      shared: "Strikes are shared: missed votes and night actions count together.",
      separate: "Strikes are separate: votes and night actions count apart.",
    },
  },
  post: {
    heading: (n: number) => `Setup: ${enPlayers(n)}`,
    factions: { mafia: "Mafia", maniac: "On their own", town: "Town" },
    summary: "This game's roles and rules",
    roles: "Roles in the game",
    rules: "Rules",
  },
  estimate: {
    heading: "Balance",
    lead: "How often each side wins when bots play this setup.",
    pending: "counting…",
    waiting: "Fix the setup and the balance will be counted.",
    failed: "Could not count the balance.",
    busy: "The server is busy with other counts. Try again in a few seconds.",
    guest: "Log in to see the balance.",
    retry: "Count again",
    sides: { town: "Town", mafia: "Mafia", maniac: "Maniac", draw: "Draw" },
    rate: (rate: number, low: number, high: number) => `${pct(rate)}% (${pct(low)}–${pct(high)}%)`,
    rateLabel: (side: string, rate: number, low: number, high: number) =>
      `${side}: ${pct(rate)}%, from ${pct(low)} to ${pct(high)}%`,
    length: "Mean length",
    days: (d: number) => `${Math.round(d * 10) / 10} days`,
    from: (games: number) => `from ${games} bot games; shares of all games, in brackets the 95% interval`,
    stalledLabel: (rate: number, low: number, high: number) =>
      `Did not end: ${pct1(rate, "en")}% (${pct1(low, "en")}–${pct1(high, "en")}%)`,
    stalled: (stalled: number, games: number, days: number) =>
      `${stalled} of ${games} games did not end within ${days} days: this setup lets a game go on with nobody ` +
      "dying or hanged. In a real game the GM would have to step in: a modkill, or strikes for missed moves.",
    noneStalled: (days: number) => `No game stalled: every game ended within ${days} days.`,
  },
};

export type SetupWords = typeof ru;

/** The setup words in the viewer's language. */
export const useSetupT = (): SetupWords => (useLang().lang === "en" ? en : ru);
