/**
 * The bots' phrase grammar (issue 16): small templates, Russian with English beside it. A template takes
 * the nicks it names as case forms (declined by the forum package's rules and handed in: the engine has no
 * dictionary) and gives its variants; the writer (bot-talk.ts) picks one a bot has not used yet.
 *
 * Nicks carry no grammatical gender (TEXTS.ru.md), so no verb or adjective agrees with a nick: the
 * sentences use the present tense («Оля молчит»), a noun («красный голос Пети ушёл на Аню»), a dash, or
 * the speaker's own present tense («голосую»). No nick stands right before «красным» or «синим», so no
 * sentence but the vote line reads as a vote (V2).
 */
import type { RoleId } from "./roles.ts";
import { ROLE_NAMES, type Lang } from "./texts.ts";

export type NameCase = "nom" | "gen" | "dat" | "acc" | "ins" | "prep";
/** A nick in every case (the forum package's nickForms); in English every case is the nick. */
export type NameForms = Readonly<Record<NameCase, string>>;

/** The bots' voices. */
export const STYLES = ["terse", "emotional", "analytical", "ironic"] as const;
export type Style = (typeof STYLES)[number];

type N = NameForms;
type Lines = readonly string[];

/** A role's name inside a sentence: «мирный житель», «доктор». */
export const roleWord = (role: RoleId, lang: Lang): string => {
  const name = ROLE_NAMES[role][lang];
  return lang === "ru" ? name.charAt(0).toLowerCase() + name.slice(1) : name.toLowerCase();
};

const RU_PLURAL = new Intl.PluralRules("ru");

/**
 * 1 голос, 2 голоса, 5 голосов, by Russian's CLDR rules (Intl.PluralRules: deterministic, no I/O). A
 * fraction ("other") takes the genitive singular, as the second form does; the bots count whole votes and days.
 */
export function plural(n: number, one: string, few: string, many: string): string {
  const form = RU_PLURAL.select(n);
  return form === "one" ? one : form === "few" || form === "other" ? few : many;
}

const ORDINAL_RU = ["", "первый", "второй", "третий", "четвёртый", "пятый", "шестой", "седьмой", "восьмой"];
const ordinalRu = (n: number): string => ORDINAL_RU[n] ?? `${n}-й`;

export interface Phrases {
  readonly opener: { readonly [S in Style]: Lines };
  readonly closer: { readonly [S in Style]: Lines };
  readonly accuse: (x: N) => Lines;
  readonly redOnTown: (x: N, day: number, y: N, role: string) => Lines;
  readonly blueOnBad: (x: N, day: number, y: N, role: string) => Lines;
  readonly blueForSuspect: (x: N, y: N) => Lines;
  readonly exposed: (x: N) => Lines;
  readonly revealed: (x: N, role: string) => Lines;
  readonly checkedMafia: (x: N) => Lines;
  readonly silentToday: (x: N) => Lines;
  readonly silentDays: (x: N, days: number) => Lines;
  readonly bandwagon: (x: N, reds: number) => Lines;
  readonly redOnMe: (x: N) => Lines;
  readonly hunch: (x: N) => Lines;
  readonly voteRed: (x: N, tag: string) => Lines;
  readonly voteBlue: (x: N, tag: string) => Lines;
  readonly defendMate: (x: N) => Lines;
  readonly defendTown: (x: N, role: string) => Lines;
  readonly noVote: (x: N) => Lines;
  readonly defend: (reds: number) => Lines;
  readonly claim: (role: string) => Lines;
  readonly claimCheck: (x: N, mafia: boolean) => Lines;
  readonly leader: (x: N, reds: number) => Lines;
  readonly calm: Lines;
  /** Said before a line said before: «Повторю:». */
  readonly again: Lines;
  readonly agree: Lines;
  readonly doubt: (x: N) => Lines;
  readonly chatNewPush: (y: N) => Lines;
  readonly replyRed: Lines;
  readonly replyBlue: Lines;
  readonly replyQuestion: Lines;
  readonly replyMafia: Lines;
  readonly replyOther: Lines;
  readonly chatKill: (kills: readonly N[], scared: readonly N[]) => Lines;
  readonly chatSuggest: (x: N) => Lines;
  readonly chatPush: (y: N) => Lines;
  readonly chatClaims: (list: readonly { readonly who: N; readonly role: string }[]) => Lines;
  readonly chatAck: Lines;
  readonly chatMyClaim: (role: string) => Lines;
  readonly chatDayPush: (y: N) => Lines;
  readonly pairCheck: (x: N) => Lines;
  readonly pairResult: (x: N, mafia: boolean) => Lines;
}

const list = (xs: readonly string[], and: string): string =>
  xs.length <= 1 ? (xs[0] ?? "") : `${xs.slice(0, -1).join(", ")} ${and} ${xs[xs.length - 1]!}`;

const RU: Phrases = {
  opener: {
    terse: [],
    emotional: [
      "Ну сколько можно!",
      "Слушайте все!",
      "Честно, нервы уже на пределе.",
      "Ох, тяжёлый день.",
      "Ну и дела!",
      "Люди, проснитесь!",
      "Это возмутительно!",
      "Так, всё, я больше не могу молчать!",
    ],
    analytical: [
      "Разберём факты.",
      "Посмотрим на голосования.",
      "По порядку.",
      "Сведём то, что известно.",
      "Логика простая.",
      "Смотрю только на факты.",
      "Коротко о том, что видно из треда.",
      "Сверим записи.",
    ],
    ironic: [
      "Какое совпадение.",
      "Ну конечно, у нас тут все мирные.",
      "Удивительное дело.",
      "Как интересно получается.",
      "Сюрприз, сюрприз.",
      "Классика жанра.",
      "Прямо детектив.",
      "Кто бы мог подумать.",
    ],
  },
  closer: {
    terse: ["Всё.", "Жду ответа.", "Точка."],
    emotional: ["Это же очевидно!", "Не проспите!", "Я не шучу!", "Давайте уже решать!", "Хватит тянуть!"],
    analytical: [
      "Выводы делайте сами.",
      "Пока так.",
      "Таков мой расчёт.",
      "Возражения — с фактами, пожалуйста.",
      "Посмотрим, что скажут остальные.",
    ],
    ironic: [
      "Но это, конечно, случайность.",
      "Совпадение, не иначе.",
      "Ничего личного.",
      "Сами понимаете.",
      "Впрочем, что я знаю.",
    ],
  },
  accuse: (x) => [
    `Мой подозреваемый — ${x.nom}.`,
    `Смотрю на ${x.acc}.`,
    `Предлагаю присмотреться к ${x.dat}.`,
    `Вопросы у меня к ${x.dat}.`,
    `Подозреваю ${x.acc}.`,
    `${x.nom}, объяснись.`,
    `Главный кандидат для меня — ${x.nom}.`,
  ],
  redOnTown: (x, d, y, role) => [
    `В день ${d} у ${x.gen} красный на ${y.acc}, а роль ${y.gen} — ${role}.`,
    `Вспомним день ${d}: красный голос ${x.gen} против ${y.gen}. Роль ${y.gen} — ${role}.`,
    `Красный от ${x.gen} в день ${d} ушёл на ${y.acc}, а ${y.nom} — ${role}.`,
  ],
  blueOnBad: (x, d, y, role) => [
    `В день ${d} от ${x.gen} был синий за ${y.acc}, а ${y.nom} — ${role}.`,
    `Синий голос ${x.gen} в день ${d} защищал ${y.acc}. Роль ${y.gen} — ${role}.`,
  ],
  blueForSuspect: (x, y) => [
    `Вчера от ${x.gen} был синий за ${y.acc}, а сегодня ${y.nom} у всех под подозрением.`,
    `Вчера синий голос ${x.gen} прикрывал ${y.acc}. С чего бы?`,
  ],
  exposed: (x) => [
    `Улики прямо указывают на ${x.acc}.`,
    `Мафия оставила улики: ${x.nom}. Чего ещё ждать?`,
    `Про ${x.acc} всё сказали улики.`,
  ],
  revealed: (x, role) => [
    `Сыворотка правды показала: ${x.nom} — ${role}.`,
    `Роль ${x.gen} вскрыта: ${role}.`,
  ],
  checkedMafia: (x) => [`Проверка показала: ${x.nom} — мафия.`, `По проверке ${x.nom} — мафия.`],
  silentToday: (x) => [
    `${x.nom} пока молчит.`,
    `От ${x.gen} сегодня ни слова.`,
    `${x.nom} в треде не появляется.`,
  ],
  silentDays: (x, n) => [
    `${x.nom} молчит ${ordinalRu(n)} день.`,
    `От ${x.gen} ни слова уже ${n} ${plural(n, "день", "дня", "дней")}.`,
  ],
  bandwagon: (x, n) => [
    `На ${x.prep} уже ${n} ${plural(n, "красный голос", "красных голоса", "красных голосов")}, и понятно почему.`,
    `Не одного меня смущает ${x.nom}: против ${x.gen} уже ${n} ${plural(n, "голос", "голоса", "голосов")}.`,
  ],
  redOnMe: (x) => [
    `${x.nom} голосует против меня без единого довода.`,
    `Красный от ${x.gen} на мне — ход того, кому есть что скрывать.`,
    `Голос ${x.gen} против меня ничем не объяснён.`,
  ],
  hunch: (x) => [
    `${x.nom} мне не нравится, объяснить трудно.`,
    `Интуиция подсказывает: ${x.nom}.`,
    `Слишком уж ${x.nom} осторожничает.`,
    `У ${x.gen} всё слишком гладко.`,
    `Посты ${x.gen} — сплошная вода.`,
  ],
  voteRed: (x, tag) => [
    `Голосую: ${tag}.`,
    `Мой голос — ${tag}.`,
    `Ставлю красный: ${tag}.`,
    `Против ${x.gen}: ${tag}.`,
    `Мой выбор на сегодня — ${tag}.`,
    `Голос против ${x.gen}: ${tag}.`,
  ],
  voteBlue: (x, tag) => [`Защищаю: ${tag}.`, `Синий за ${x.acc}: ${tag}.`, `Мой голос — в защиту: ${tag}.`],
  defendMate: (x) => [
    `На ${x.prep} слишком много голосов без доводов.`,
    `Против ${x.gen} одни эмоции, фактов нет.`,
  ],
  defendTown: (x, role) => [
    `${x.nom} — ${role}, роль вскрыта. Не трогайте.`,
    `Роль ${x.gen} известна: ${role}.`,
  ],
  noVote: (x) => [
    `Сегодня я без голоса, но моё мнение — ${x.nom}.`,
    `Голоса у меня сегодня нет. Смотрите на ${x.acc}.`,
  ],
  defend: (n) => [
    `На мне ${n} ${plural(n, "красный", "красных", "красных")}? Я за город, ищите в другом месте.`,
    `Я не мафия. Голоса против меня — пустая трата.`,
    `Зря вы на меня. Мафия сейчас потирает руки.`,
    `Кто голосует против меня, тот помогает мафии.`,
  ],
  claim: (role) => [
    `Раз так, раскрываюсь: моя роль — ${role}.`,
    `Скажу прямо: я ${role}.`,
    `Моя роль — ${role}.`,
  ],
  claimCheck: (x, mafia) =>
    mafia
      ? [
          `Моя роль — сержант. Проверка: ${x.nom} — мафия.`,
          `Раскрываюсь: сержант. ${x.nom} — мафия по моей проверке.`,
        ]
      : [`Моя роль — сержант. Проверка: ${x.nom} — не мафия.`, `Сержант здесь. ${x.nom} — не мафия.`],
  leader: (x, n) => [
    `Пока больше всех против ${x.gen}: ${n} ${plural(n, "голос", "голоса", "голосов")}.`,
    `Лидер голосования — ${x.nom}, ${n} ${plural(n, "голос", "голоса", "голосов")}.`,
  ],
  calm: ["Пока слушаю.", "Жду, что скажут остальные.", "День только начался, посмотрим.", "Не торопимся."],
  again: ["Повторю:", "Напомню:", "Ещё раз:", "Снова:", "Всё так же:", "По-прежнему:"],
  agree: ["Тут я с большинством.", "Поддерживаю.", "Всё сходится.", "Меня это устраивает.", "Так и надо."],
  doubt: (x) => [
    `Только не забывайте про ${x.acc}.`,
    `Но мне по-прежнему не нравится ${x.nom}.`,
    `Не спешите, посмотрите и на ${x.acc}.`,
  ],
  chatNewPush: (y) => [`Новый план: днём давим на ${y.acc}.`, `Меняем цель: все против ${y.gen}.`],
  replyRed: ["За что красный?", "Красный на меня? Мимо.", "Голос против меня — ошибка."],
  replyBlue: ["Спасибо за синий.", "Ценю защиту.", "Спасибо, что не поддаёшься общему шуму."],
  replyQuestion: ["Отвечаю.", "Хороший вопрос.", "Объясню."],
  replyMafia: ["Я не мафия.", "Мимо: я за город.", "Не там ищешь мафию."],
  replyOther: ["Услышано.", "Принято к сведению.", "Понимаю."],
  chatKill: (kills, scared) => {
    const k = list(
      kills.map((x) => x.acc),
      "и",
    );
    const s =
      scared.length > 0
        ? ` Голоса лишаем: ${list(
            scared.map((x) => x.acc),
            "и",
          )}.`
        : "";
    return [
      `Ночью убираем ${k}.${s}`,
      `Сегодня цель — ${list(
        kills.map((x) => x.nom),
        "и",
      )}.${s}`,
    ];
  },
  chatSuggest: (x) => [`Предлагаю убрать ${x.acc}.`, `Мой кандидат на ночь — ${x.nom}.`],
  chatPush: (y) => [`Днём давим на ${y.acc}.`, `Днём все против ${y.gen}.`],
  chatClaims: (items) => [
    `Легенды, если прижмут: ${items.map((i) => `${i.who.nom} — ${i.role}`).join(", ")}.`,
    `Кто кем назовётся: ${items.map((i) => `${i.who.nom} — ${i.role}`).join(", ")}.`,
  ],
  chatAck: ["Принято.", "Договорились.", "Поддерживаю.", "Идёт.", "Так и сделаем."],
  chatMyClaim: (role) => [`Моя легенда, как решили: ${role}.`, `Если прижмут, я ${role}.`],
  chatDayPush: (y) => [`Давим на ${y.acc}, как договорились.`, `Все на ${y.acc}.`],
  pairCheck: (x) => [`Проверяю ${x.acc}.`, `Сегодня проверка — ${x.nom}.`],
  pairResult: (x, mafia) =>
    mafia ? [`${x.nom} — мафия. Выкладываю в тред.`] : [`${x.nom} — не мафия. Пока держим при себе.`],
};

const EN: Phrases = {
  opener: {
    terse: [],
    emotional: ["Come on, people!", "Listen, everyone!", "My nerves are shot.", "What a day!", "Wake up!"],
    analytical: ["Let's look at the facts.", "Look at the votes.", "Step by step.", "Here is what we know."],
    ironic: ["What a coincidence.", "Of course, everyone here is a citizen.", "How curious.", "Classic."],
  },
  closer: {
    terse: ["That's all.", "Waiting for an answer."],
    emotional: ["It's obvious!", "Don't sleep on this!", "I'm not joking!", "Let's decide!"],
    analytical: ["Draw your own conclusions.", "That's where I stand.", "Objections with facts, please."],
    ironic: ["Pure coincidence, surely.", "Nothing personal.", "But what do I know."],
  },
  accuse: (x) => [
    `My suspect is ${x.nom}.`,
    `I'm looking at ${x.nom}.`,
    `${x.nom}, explain yourself.`,
    `I suspect ${x.nom}.`,
  ],
  redOnTown: (x, d, y, role) => [
    `On day ${d} ${x.nom} voted red on ${y.nom}, and ${y.nom} was a ${role}.`,
    `Remember day ${d}: a red vote from ${x.nom} on ${y.nom}, a ${role}.`,
  ],
  blueOnBad: (x, d, y, role) => [`On day ${d} ${x.nom} defended ${y.nom}, and ${y.nom} was a ${role}.`],
  blueForSuspect: (x, y) => [`Yesterday ${x.nom} defended ${y.nom}, and today ${y.nom} is under fire.`],
  exposed: (x) => [`The evidence points straight at ${x.nom}.`, `The mafia left evidence: ${x.nom}.`],
  revealed: (x, role) => [`The truth serum showed ${x.nom} is a ${role}.`],
  checkedMafia: (x) => [`A check showed ${x.nom} is mafia.`],
  silentToday: (x) => [`${x.nom} has said nothing today.`, `Not a word from ${x.nom} yet.`],
  silentDays: (x, n) => [`${x.nom} has been silent for ${n} days.`],
  bandwagon: (x, n) => [`${x.nom} already has ${n} red votes, and I see why.`],
  redOnMe: (x) => [
    `${x.nom} votes against me without a reason.`,
    `A red vote on me from ${x.nom} is suspicious.`,
  ],
  hunch: (x) => [
    `I don't like ${x.nom}, hard to say why.`,
    `My gut says ${x.nom}.`,
    `${x.nom} is too careful.`,
  ],
  voteRed: (x, tag) => [
    `My vote: ${tag}.`,
    `Voting ${tag}.`,
    `Red on ${x.nom}: ${tag}.`,
    `Today's pick: ${tag}.`,
  ],
  voteBlue: (x, tag) => [`Defending: ${tag}.`, `Blue for ${x.nom}: ${tag}.`],
  defendMate: (x) => [`Too many votes on ${x.nom} without a reason.`],
  defendTown: (x, role) => [`${x.nom} is a ${role}, revealed. Leave them be.`],
  noVote: (x) => [`I have no vote today, but my pick is ${x.nom}.`],
  defend: (n) => [
    `${n} red votes on me? I'm town, look elsewhere.`,
    `I'm not mafia. Votes on me are wasted.`,
  ],
  claim: (role) => [`Fine, I'll say it: I'm the ${role}.`, `My role is ${role}.`],
  claimCheck: (x, mafia) => [`I'm the sergeant. My check: ${x.nom} is ${mafia ? "mafia" : "not mafia"}.`],
  leader: (x, n) => [`${x.nom} leads the vote with ${n}.`],
  calm: ["Listening for now.", "Let's hear the others.", "No rush."],
  again: ["Again:", "To repeat:", "Once more:", "Still:"],
  agree: ["I'm with the majority here.", "Agreed.", "It all adds up."],
  doubt: (x) => [`Don't forget about ${x.nom}.`, `I still don't like ${x.nom}.`],
  chatNewPush: (y) => [`New plan: we push ${y.nom} today.`],
  replyRed: ["Why the red vote?", "Red on me? Wrong target."],
  replyBlue: ["Thanks for the blue.", "Thanks for the defence."],
  replyQuestion: ["Here's my answer.", "Good question."],
  replyMafia: ["I'm not mafia.", "Wrong: I'm town."],
  replyOther: ["Noted.", "Heard you."],
  chatKill: (kills, scared) => {
    const s =
      scared.length > 0
        ? ` Silencing ${list(
            scared.map((x) => x.nom),
            "and",
          )}.`
        : "";
    return [
      `Tonight we take ${list(
        kills.map((x) => x.nom),
        "and",
      )}.${s}`,
    ];
  },
  chatSuggest: (x) => [`I suggest ${x.nom} tonight.`],
  chatPush: (y) => [`By day we push ${y.nom}.`],
  chatClaims: (items) => [`Cover stories: ${items.map((i) => `${i.who.nom} — ${i.role}`).join(", ")}.`],
  chatAck: ["Agreed.", "Deal.", "OK."],
  chatMyClaim: (role) => [`My cover stays: ${role}.`],
  chatDayPush: (y) => [`Everyone on ${y.nom}, as agreed.`],
  pairCheck: (x) => [`Checking ${x.nom}.`],
  pairResult: (x, mafia) => [
    mafia ? `${x.nom} is mafia. Posting it.` : `${x.nom} is not mafia. Keeping it quiet.`,
  ],
};

export const PHRASES: { readonly [L in Lang]: Phrases } = { ru: RU, en: EN };
