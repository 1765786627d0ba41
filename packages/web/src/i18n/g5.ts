import type { ChannelId, FlagMeasure, G5Policy, Phase, ProfanityKind } from "@forum-mafia/protocol";
import { useLang } from "./index.tsx";
import { ruPlural } from "./me.ts";

/**
 * Issue 31: G5 (swearing and insults) in the words of the app: the composers' warning, the GM's list of
 * flagged posts and messages with their measures, the new game's G5 policy and the setup post's line on it,
 * and a player's strikes. Russian first; English has the same keys. Only the screens that show these import
 * this file (the game page, the GM console and the new-game page load on demand), so the words do not weigh
 * on the first load. The words agree with «вы» or with the game, never with a nickname, and carry no clause
 * ids: the rule is «правило 5», its number among the seed's rules (RULES.md calls it G5), as the server's
 * messages to the player say it.
 */

/** The rule as the seed words it (seed rule 5; RULES.md G5). Quoted as it stands, in both languages. */
const RULE_RU =
  "Употребление нецензурной лексики, оскорбление игроков СТРОГО ЗАПРЕЩЕНО! Наказание будет на усмотрение ГМ вплоть до исключения из игры.";

const ruFlags = (n: number): string => `${n} ${ruPlural(n, "нарушение", "нарушения", "нарушений")}`;
const enFlags = (n: number): string => `${n} ${n === 1 ? "breach" : "breaches"}`;

/** Where a flagged text was written: the thread or a channel (a personal one by its seat). */
type Where = "thread" | ChannelId;
const place = (where: Where): "thread" | "mafia" | "pair" | "spectators" | "gm" =>
  where.startsWith("gm:") ? "gm" : (where as "thread" | "mafia" | "pair" | "spectators");

const RU_WHERE = {
  thread: "в теме",
  mafia: "чат мафии",
  pair: "чат шерифа и сержанта",
  spectators: "комната зрителей",
  gm: "личка с ведущим",
} as const;
/** The default reason's place: «G5: мат в теме», «G5: оскорбление в чате мафии». */
const RU_WHERE_IN = {
  thread: "в теме",
  mafia: "в чате мафии",
  pair: "в чате шерифа и сержанта",
  spectators: "в комнате зрителей",
  gm: "в личке с ведущим",
} as const;
const RU_KIND: Record<ProfanityKind, string> = { obscene: "мат", insult: "оскорбление" };

export const ru = {
  /** The composers' warning (the thread's and the chats'). */
  warning: {
    heading: (kind: ProfanityKind): string =>
      kind === "obscene" ? "Похоже, в сообщении мат" : "Похоже, в сообщении оскорбление игрока",
    ruleLine: `Правило 5: «${RULE_RU}»`,
    words: "В сообщении: ",
    sendAnyway:
      "Отправить сообщение всё равно можно: проверка бывает неточной, а наказание назначает ведущий.",
  },
  /** The GM console's section. */
  flags: {
    heading: "Нарушения правила 5: мат и оскорбления",
    lead: "Посты и сообщения, в которых проверка нашла мат или оскорбление. Проверка бывает неточной: прочитайте текст, прежде чем наказывать. Каждая мера записывается с причиной в лог игры.",
    order: "Сначала нерешённые, внутри — новые сверху.",
    none: "Нарушений пока нет.",
    open: (n: number) => (n === 0 ? "все решены" : `${n} ${ruPlural(n, "ждёт", "ждут", "ждут")} решения`),
    badge: (n: number) => `${ruFlags(n)} правила 5 ${ruPlural(n, "ждёт", "ждут", "ждут")} решения`,
    kind: (kind: ProfanityKind): string => RU_KIND[kind],
    where: (where: Where): string => RU_WHERE[place(where)],
    itemLabel: (author: string, kind: ProfanityKind, where: Where) =>
      `${author}: ${RU_KIND[kind]}, ${RU_WHERE[place(where)]}`,
    noPhase: "до начала игры",
    textLabel: "Текст",
    words: "Отмечено: ",
    toPost: "Открыть пост в теме",
    toChat: (where: Where) =>
      place(where) === "gm" ? "Открыть личку с игроком" : `Открыть ${RU_WHERE[place(where)]}`,
    earlier: (n: number) =>
      n === 0 ? "Раньше в этой игре нарушений не было." : `Раньше в этой игре: ${ruFlags(n)}.`,
    earlierLine: (phase: string, kind: ProfanityKind, where: Where, words: string) =>
      `${phase}, ${RU_WHERE[place(where)]}: ${RU_KIND[kind]} (${words})`,
    measuresHeading: "Принятые меры",
    noMeasures: "Мер пока нет.",
    auto: "автоматически",
    measure: {
      dismiss: "Без мер",
      warn: "Предупреждение",
      hide: "Пост скрыт",
      strike: "Страйк",
      modkill: "Модкилл",
    } satisfies Record<FlagMeasure, string>,
    reason: "Причина (попадёт в лог игры)",
    defaultReason: (kind: ProfanityKind, where: Where) =>
      `Правило 5: ${RU_KIND[kind]} ${RU_WHERE_IN[place(where)]}`,
    reasonEmpty: "Напишите причину.",
    actions: "Меры",
    dismiss: "Без мер",
    warn: "Предупредить",
    hide: "Скрыть пост",
    strike: "Страйк",
    modkill: "Модкилл",
    modkillConfirm: "Да, исключить из игры",
    done: {
      dismiss: "Записано: без мер.",
      warn: "Предупреждение отправлено игроку в личку с ведущим.",
      hide: "Пост скрыт.",
      strike: "Страйк дан; игрок получил сообщение в личке с ведущим.",
      modkill: "Модкилл записан: игрок выбудет в конце фазы.",
    } satisfies Record<FlagMeasure, string>,
    /** Why a measure is not offered. */
    notOffered: {
      chat: "Скрыть можно только пост в теме: сообщение в чате не скрывается.",
      hidden: "Пост уже скрыт.",
      noStrikes: "Страйки за мат и оскорбления в этой игре не даются (так задано при создании игры).",
      dead: "Игрок уже выбыл: страйк и модкилл невозможны.",
    },
  },
  /** A player's own strikes, above every tab of the game page. */
  mine: {
    line: (n: number, shared: boolean) =>
      shared
        ? `У вас ${n} ${ruPlural(n, "страйк", "страйка", "страйков")} из 2: второй страйк — модкилл.`
        : `У вас ${n} ${ruPlural(n, "страйк", "страйка", "страйков")}. Они считаются раздельно: второй страйк одного вида (за голос, за ночной ход или за правило 5) — модкилл.`,
    hint: "Страйк дают за пропущенный голос, пропущенный ночной ход и за мат или оскорбления (правило 5).",
  },
  /** The new game's G5 section. */
  setup: {
    legend: "Мат и оскорбления (правило 5)",
    lead: `«${RULE_RU}» Что платформа делает сама, когда проверка находит мат или оскорбление:`,
    policy: {
      off: {
        label: "Только отмечать для ведущего",
        hint: "Пост уходит как есть; ведущий видит его в пульте и решает сам.",
      },
      warn: {
        label: "Предупреждать автора",
        hint: "Автор сразу получает предупреждение в личке с ведущим; наказание — на усмотрение ведущего.",
      },
      hideStrike: {
        label: "Скрывать пост и предупреждать, третье нарушение — страйк",
        hint: "Пост в теме скрывается, автор получает предупреждение; каждое третье нарушение игрока — страйк.",
      },
    } satisfies Record<G5Policy, { label: string; hint: string }>,
    strikes: "Страйк за мат и оскорбления разрешён",
    strikesHint: "Ведущий может дать страйк за мат или оскорбление; второй страйк — модкилл.",
    strikesForced: "При скрытии с третьим нарушением страйк нужен: галочку не снять.",
  },
  /** The setup post's lines. */
  post: {
    policy: {
      off: "Мат и оскорбления (правило 5): платформа только отмечает их для ведущего, наказание — на усмотрение ведущего.",
      warn: "Мат и оскорбления (правило 5): автор сразу получает предупреждение, наказание — на усмотрение ведущего.",
      hideStrike:
        "Мат и оскорбления (правило 5): пост скрывается, автор получает предупреждение, каждое третье нарушение — страйк.",
    } satisfies Record<G5Policy, string>,
    strikes: {
      on: "За мат и оскорбления ведущий может дать страйк.",
      off: "Страйков за мат и оскорбления нет: ведущий может предупредить, скрыть пост или исключить из игры.",
    },
  },
};

const EN_WHERE = {
  thread: "in the thread",
  mafia: "mafia chat",
  pair: "sheriff and sergeant chat",
  spectators: "spectators' room",
  gm: "DM with the GM",
} as const;
const EN_WHERE_IN = {
  thread: "in the thread",
  mafia: "in the mafia chat",
  pair: "in the sheriff and sergeant chat",
  spectators: "in the spectators' room",
  gm: "in the DM with the GM",
} as const;
const EN_KIND: Record<ProfanityKind, string> = { obscene: "swearing", insult: "an insult" };

export const en: typeof ru = {
  warning: {
    heading: (kind: ProfanityKind) =>
      kind === "obscene" ? "This message seems to hold swearing" : "This message seems to insult a player",
    ruleLine:
      "Rule 5: “Swearing and insulting players is STRICTLY FORBIDDEN! The GM decides the penalty, up to removal from the game.”",
    words: "In the message: ",
    sendAnyway: "You can still send it: the check can be wrong, and the GM decides the penalty.",
  },
  flags: {
    heading: "Rule 5 breaches: swearing and insults",
    lead: "Posts and messages where the check found swearing or an insult. The check can be wrong: read the text before punishing. Every measure goes into the game's log with its reason.",
    order: "Open ones first, newest first within each group.",
    none: "No breaches yet.",
    open: (n: number) => (n === 0 ? "all decided" : `${n} awaiting a decision`),
    badge: (n: number) => `${enFlags(n)} of rule 5 awaiting a decision`,
    kind: (kind: ProfanityKind) => EN_KIND[kind],
    where: (where: Where) => EN_WHERE[place(where)],
    itemLabel: (author: string, kind: ProfanityKind, where: Where) =>
      `${author}: ${EN_KIND[kind]}, ${EN_WHERE[place(where)]}`,
    noPhase: "before the start",
    textLabel: "Text",
    words: "Flagged: ",
    toPost: "Open the post in the thread",
    toChat: (where: Where) =>
      place(where) === "gm" ? "Open the DM with the player" : `Open the ${EN_WHERE[place(where)]}`,
    earlier: (n: number) =>
      n === 0 ? "No earlier breaches in this game." : `Earlier in this game: ${enFlags(n)}.`,
    earlierLine: (phase: string, kind: ProfanityKind, where: Where, words: string) =>
      `${phase}, ${EN_WHERE[place(where)]}: ${EN_KIND[kind]} (${words})`,
    measuresHeading: "Measures taken",
    noMeasures: "No measures yet.",
    auto: "automatic",
    measure: {
      dismiss: "No measure",
      warn: "Warning",
      hide: "Post hidden",
      strike: "Strike",
      modkill: "Modkill",
    },
    reason: "Reason (goes into the game's log)",
    defaultReason: (kind: ProfanityKind, where: Where) =>
      `Rule 5: ${EN_KIND[kind]} ${EN_WHERE_IN[place(where)]}`,
    reasonEmpty: "Write a reason.",
    actions: "Measures",
    dismiss: "No measure",
    warn: "Warn",
    hide: "Hide the post",
    strike: "Strike",
    modkill: "Modkill",
    modkillConfirm: "Yes, remove from the game",
    done: {
      dismiss: "Recorded: no measure.",
      warn: "The warning was sent to the player's DM with the GM.",
      hide: "The post is hidden.",
      strike: "Strike given; the player got a message in the DM with the GM.",
      modkill: "Modkill recorded: the player leaves at the end of the phase.",
    },
    notOffered: {
      chat: "Only a post in the thread can be hidden: a chat message cannot.",
      hidden: "The post is already hidden.",
      noStrikes: "This game gives no strikes for swearing and insults (set when the game was created).",
      dead: "The player is already out: no strike or modkill is possible.",
    },
  },
  mine: {
    line: (n: number, shared: boolean) =>
      shared
        ? `You have ${n} ${n === 1 ? "strike" : "strikes"} of 2: a second strike is a modkill.`
        : `You have ${n} ${n === 1 ? "strike" : "strikes"}. They are counted apart: a second strike of one kind (for a vote, a night move or rule 5) is a modkill.`,
    hint: "Strikes are given for a missed vote, a missed night move and for swearing or insults (rule 5).",
  },
  setup: {
    legend: "Swearing and insults (rule 5)",
    lead: "Swearing and insulting players is strictly forbidden; the GM decides the penalty, up to removal from the game. What the platform does by itself when the check finds swearing or an insult:",
    policy: {
      off: {
        label: "Only flag it for the GM",
        hint: "The post goes out as it is; the GM sees it in the console and decides.",
      },
      warn: {
        label: "Warn the author",
        hint: "The author gets a warning in the DM with the GM at once; the GM decides the penalty.",
      },
      hideStrike: {
        label: "Hide the post and warn; every third breach is a strike",
        hint: "The post in the thread is hidden and the author warned; every third breach of a player is a strike.",
      },
    },
    strikes: "A strike for swearing and insults is allowed",
    strikesHint: "The GM may give a strike for swearing or an insult; a second strike is a modkill.",
    strikesForced: "Hiding with a strike on the third breach needs strikes: the box stays ticked.",
  },
  post: {
    policy: {
      off: "Swearing and insults (rule 5): the platform only flags them for the GM, who decides the penalty.",
      warn: "Swearing and insults (rule 5): the author is warned at once; the GM decides the penalty.",
      hideStrike:
        "Swearing and insults (rule 5): the post is hidden and the author warned; every third breach is a strike.",
    },
    strikes: {
      on: "The GM may give a strike for swearing and insults.",
      off: "No strikes for swearing and insults: the GM may warn, hide the post or remove the player from the game.",
    },
  },
};

export type G5Words = typeof ru;

/** The G5 words in the viewer's language. */
export const useG5T = (): G5Words => (useLang().lang === "en" ? en : ru);

/** A phase in words for the GM's list: «день 2», «ночь 1». */
export const phaseWords = (phase: Phase, lang: "ru" | "en"): string =>
  lang === "en"
    ? `${phase.kind} ${phase.number}`
    : `${phase.kind === "night" ? "ночь" : "день"} ${phase.number}`;
