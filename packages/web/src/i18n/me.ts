/**
 * Issue 15: «Мои игры», the settings and the reminders. Russian first; English has the same keys. The
 * words agree with "вы" or with the game, never with a nickname (TEXTS.ru.md: nicks have no gender).
 */

const RU_PLURAL = new Intl.PluralRules("ru");

/**
 * Russian plural: 1 пост, 2 поста, 5 постов (11–14 take the third form), by the language's CLDR rules
 * (Intl.PluralRules). A fraction ("other") takes the genitive singular, as the second form does: 1,5 поста.
 */
export function ruPlural(n: number, one: string, few: string, many: string): string {
  const form = RU_PLURAL.select(n);
  return form === "one" ? one : form === "few" || form === "other" ? few : many;
}

const enPlural = (n: number, one: string, many: string): string => (n === 1 ? one : many);

/** "15 минут", "2 часа", "1 ч 30 мин": how long until a deadline, in whole minutes. */
function ruSpan(minutes: number): string {
  if (minutes < 60) return `${minutes} ${ruPlural(minutes, "минуту", "минуты", "минут")}`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (m === 0) return `${h} ${ruPlural(h, "час", "часа", "часов")}`;
  return `${h} ч ${m} мин`;
}

function enSpan(minutes: number): string {
  if (minutes < 60) return `${minutes} ${enPlural(minutes, "minute", "minutes")}`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (m === 0) return `${h} ${enPlural(h, "hour", "hours")}`;
  return `${h} h ${m} min`;
}

/** The phase named inside a sentence: "день 2", "ночь 1". */
type PhaseWord = { readonly kind: "night" | "day"; readonly number: number };
const ruPhase = (p: PhaseWord): string => (p.kind === "day" ? `день ${p.number}` : `ночь ${p.number}`);
const enPhase = (p: PhaseWord): string => (p.kind === "day" ? `day ${p.number}` : `night ${p.number}`);
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

export const ru = {
  nav: { myGames: "Мои игры", myGamesShort: "Мои", settings: "Настройки" },
  myGames: {
    title: "Мои игры",
    toLobby: "К набору и всем играм",
    lobbyTitle: "Все игры",
    active: "Играю",
    signups: "Записи и запас",
    hosting: "Веду",
    finished: "Сыгранные",
    nothing:
      "Вы пока не играете и не ведёте игр. Запишитесь в игру из набора ниже или сыграйте демо-игру с ботами.",
    refreshFailed: "Не удалось обновить «Мои игры».",
    gmBy: (nick: string) => `Ведущий: ${nick}`,
    owes: {
      vote: "Вы ещё не проголосовали",
      action: "Вы ещё не сделали ночной ход",
      gmAnswer: "Ведущий ждёт вашего ответа",
      review: "Итоги ночи ждут вашей проверки",
      council: "Вопрос совету ждёт вашего ответа",
      dayClosing: "Скоро конец дня",
    },
    owesLabel: "Что от вас ждут",
    nothingOwed: "Сейчас от вас ничего не ждут.",
    unread: (posts: number, messages: number) =>
      [
        posts > 0 ? `${posts} ${ruPlural(posts, "новый пост", "новых поста", "новых постов")}` : "",
        messages > 0
          ? `${messages} ${ruPlural(messages, "новое сообщение", "новых сообщения", "новых сообщений")}`
          : "",
      ]
        .filter(Boolean)
        .join(", "),
    signedUp: (place: number | null, seats: number) =>
      place === null ? "Вы записаны" : `Вы записаны: место ${place} из ${seats}`,
    reserve: (n: number | null) => (n === null ? "Вы в запасе" : `Вы в запасе, номер в очереди: ${n}`),
    reserveRunning: "Игра идёт, вы в запасе на замену",
    listed: (n: number, seats: number) => `записалось ${n} из ${seats}`,
    signupOpen: "Идёт набор игроков",
    console: "Пульт ведущего",
    consoleOf: (title: string) => ` игры «${title}»`,
    role: (name: string) => `Ваша роль: ${name}`,
    result: { won: "Победа", lost: "Поражение", draw: "Ничья" },
    hosted: "Вы вели эту игру",
    replaced: "Вы передали место замене",
    stopped: "Срок фазы остановлен",
  },
  reminders: {
    label: "Напоминания",
    /** The banner's sentence: the deadline in words (from the viewer's clock), the phase, the game, what is owed. */
    text: (r: {
      inMinutes: number | null;
      at: string | null;
      phase: PhaseWord;
      title: string;
      /** What is owed, as myGames.owes words it, begun in lower case; null: the GM's own game ends a day. */
      owed: string | null;
    }) => {
      const game = r.owed === null ? `в игре «${r.title}», которую вы ведёте` : `в игре «${r.title}»`;
      const owed = r.owed === null ? "." : `: ${r.owed}.`;
      if (r.inMinutes !== null && r.inMinutes < 1)
        return `Меньше чем через минуту заканчивается ${ruPhase(r.phase)} ${game}${owed}`;
      if (r.inMinutes !== null)
        return `Через ${ruSpan(r.inMinutes)} заканчивается ${ruPhase(r.phase)} ${game}${owed}`;
      if (r.at !== null) return `${cap(ruPhase(r.phase))} ${game} заканчивается ${r.at}${owed}`;
      return `${cap(game)} идёт ${ruPhase(r.phase)}${owed}`;
    },
    open: "К игре",
    openOf: (title: string) => ` «${title}»`,
    dismiss: "Скрыть",
    dismissOf: (title: string) => ` напоминание об игре «${title}»`,
  },
  settings: {
    title: "Настройки",
    guest: "Настройки есть у вошедших игроков.",
    login: "Войти",
    saved: "Настройки сохранены.",
    confirmed: "Адрес почты подтверждён: напоминания будут приходить на него.",
    save: "Сохранить настройки",
    saving: "Сохраняем…",
    email: {
      legend: "Почта",
      off: "На этом сервере письма не отправляются, поэтому напоминания по почте недоступны. Напоминания в приложении работают.",
      address: "Адрес почты",
      addressHint: "Только для напоминаний. Другим игрокам адрес не виден.",
      confirmedState: "Адрес подтверждён.",
      waiting: (email: string) =>
        `Ждём подтверждения: мы отправили письмо со ссылкой на ${email}. Откройте ссылку из письма, чтобы получать напоминания.`,
      willSend: "После сохранения мы отправим на этот адрес письмо со ссылкой для подтверждения.",
      againAt: (when: string) =>
        `Письма со ссылкой мы отправляем не чаще раза в час на один адрес и не больше пяти в день. Если письма нет, сохраните адрес снова после ${when}.`,
      reminders: "Присылать напоминания на почту",
      invalid: "Адрес почты выглядит неверно: нужен адрес вида name@example.ru.",
    },
    before: {
      legend: "Напоминания перед концом фазы",
      lead: "Если вы ещё не проголосовали или не сделали ночной ход, мы напомним за это время до конца дня или ночи.",
      offset: (n: number) => `Напоминание ${n}: за`,
      unit: (n: number) => `Единица времени напоминания ${n}`,
      hours: "часов",
      minutes: "минут",
      remove: "Убрать",
      removeOf: (n: number) => ` напоминание ${n}`,
      add: "Добавить напоминание",
      max: "Напоминаний может быть не больше четырёх.",
      none: "Напоминаний нет: мы не будем напоминать о сроках.",
      range: (n: number) => `Напоминание ${n}: целое число от 1 минуты до 48 часов.`,
    },
    quiet: {
      legend: "Тихие часы",
      enable: "Не присылать напоминания в тихие часы",
      from: "С",
      to: "До",
      zone: (zone: string, now: string) => `Время по вашему часовому поясу: ${zone} (сейчас ${now}).`,
      invalid: "Тихие часы: укажите время начала и конца, например 23:00 и 08:00.",
    },
    browser: {
      legend: "Уведомления в браузере",
      enable: "Показывать уведомления браузера",
      hint: "Пока открыта вкладка с сайтом, напоминание придёт и уведомлением браузера.",
      unsupported: "Этот браузер не умеет показывать уведомления.",
      denied:
        "Браузер запретил уведомления для этого сайта. Разрешите их в настройках сайта в браузере и включите снова.",
      asking: "Браузер спрашивает разрешение на уведомления…",
      notAsked: "В этом браузере уведомления ещё не разрешены.",
      allow: "Разрешить уведомления",
    },
  },
};

export const en: typeof ru = {
  nav: { myGames: "My games", myGamesShort: "Mine", settings: "Settings" },
  myGames: {
    title: "My games",
    toLobby: "To signups and all games",
    lobbyTitle: "All games",
    active: "Playing",
    signups: "Signups and reserve",
    hosting: "Running as GM",
    finished: "Played",
    nothing:
      "You are not playing or running any games yet. Sign up for a game below or play a demo game with bots.",
    refreshFailed: "Could not refresh “My games”.",
    gmBy: (nick: string) => `GM: ${nick}`,
    owes: {
      vote: "You have not voted yet",
      action: "You have not made your night move yet",
      gmAnswer: "The GM is waiting for your answer",
      review: "The night's results await your review",
      council: "A question to the council awaits your answer",
      dayClosing: "The day ends soon",
    },
    owesLabel: "What is expected of you",
    nothingOwed: "Nothing is expected of you right now.",
    unread: (posts: number, messages: number) =>
      [
        posts > 0 ? `${posts} new ${enPlural(posts, "post", "posts")}` : "",
        messages > 0 ? `${messages} new ${enPlural(messages, "message", "messages")}` : "",
      ]
        .filter(Boolean)
        .join(", "),
    signedUp: (place: number | null, seats: number) =>
      place === null ? "You are signed up" : `You are signed up: place ${place} of ${seats}`,
    reserve: (n: number | null) =>
      n === null ? "You are in reserve" : `You are in reserve, number ${n} in line`,
    reserveRunning: "The game is running; you are in reserve for a replacement",
    listed: (n: number, seats: number) => `${n} of ${seats} signed up`,
    signupOpen: "Taking signups",
    console: "GM console",
    consoleOf: (title: string) => ` of “${title}”`,
    role: (name: string) => `Your role: ${name}`,
    result: { won: "Won", lost: "Lost", draw: "Draw" },
    hosted: "You ran this game",
    replaced: "You handed your seat to a substitute",
    stopped: "The phase's clock is stopped",
  },
  reminders: {
    label: "Reminders",
    text: (r) => {
      const game = r.owed === null ? `in “${r.title}”, the game you run,` : `in “${r.title}”`;
      const owed = r.owed === null ? "." : `: ${r.owed}.`;
      const phase = cap(enPhase(r.phase));
      if (r.inMinutes !== null && r.inMinutes < 1)
        return `${phase} ${game} ends in less than a minute${owed}`;
      if (r.inMinutes !== null) return `${phase} ${game} ends in ${enSpan(r.inMinutes)}${owed}`;
      if (r.at !== null) return `${phase} ${game} ends ${r.at}${owed}`;
      return `It is ${enPhase(r.phase)} ${game.replace(/,$/, "")}${owed}`;
    },
    open: "Open the game",
    openOf: (title: string) => ` “${title}”`,
    dismiss: "Dismiss",
    dismissOf: (title: string) => ` the reminder about “${title}”`,
  },
  settings: {
    title: "Settings",
    guest: "Settings are for logged-in players.",
    login: "Log in",
    saved: "Settings saved.",
    confirmed: "Your e-mail address is confirmed: reminders will come to it.",
    save: "Save settings",
    saving: "Saving…",
    email: {
      legend: "E-mail",
      off: "This server does not send e-mail, so e-mail reminders are not available. Reminders in the app work.",
      address: "E-mail address",
      addressHint: "For reminders only. Other players never see it.",
      confirmedState: "The address is confirmed.",
      waiting: (email: string) =>
        `Waiting for confirmation: we sent a message with a link to ${email}. Open the link to get reminders.`,
      willSend: "Once saved, we will send a message with a confirmation link to this address.",
      againAt: (when: string) =>
        `We send a confirmation link at most once an hour to one address and five times a day. If none has come, save the address again after ${when}.`,
      reminders: "Send reminders by e-mail",
      invalid: "The e-mail address does not look right: it should look like name@example.com.",
    },
    before: {
      legend: "Reminders before a phase ends",
      lead: "If you have not voted or made your night move, we remind you this long before the day or night ends.",
      offset: (n: number) => `Reminder ${n}: before`,
      unit: (n: number) => `Time unit of reminder ${n}`,
      hours: "hours",
      minutes: "minutes",
      remove: "Remove",
      removeOf: (n: number) => ` reminder ${n}`,
      add: "Add a reminder",
      max: "There can be at most four reminders.",
      none: "No reminders: we will not remind you of deadlines.",
      range: (n: number) => `Reminder ${n}: a whole number from 1 minute to 48 hours.`,
    },
    quiet: {
      legend: "Quiet hours",
      enable: "Send no reminders during quiet hours",
      from: "From",
      to: "To",
      zone: (zone: string, now: string) => `In your time zone: ${zone} (now ${now}).`,
      invalid: "Quiet hours: give the start and the end, e.g. 23:00 and 08:00.",
    },
    browser: {
      legend: "Browser notifications",
      enable: "Show browser notifications",
      hint: "While a tab with the site is open, a reminder also comes as a browser notification.",
      unsupported: "This browser cannot show notifications.",
      denied:
        "The browser blocked notifications for this site. Allow them in the browser's site settings, then turn them on again.",
      asking: "The browser is asking for permission to show notifications…",
      notAsked: "This browser has not allowed notifications yet.",
      allow: "Allow notifications",
    },
  },
};
