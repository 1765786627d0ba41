/**
 * The role card: the rules of each role as its player reads them in the private role message (S1), in
 * Russian with English beside it. Worded after RULES.md §6–§8 and the original's own phrasing.
 */
import type { GameOptions } from "./options.ts";
import type { RoleId } from "./roles.ts";
import type { Lang, Phrase } from "./texts.ts";

const RANKED_MAFIA: Phrase<readonly string[]> = {
  ru: [
    "Вы знаете всех членов мафии и общаетесь с ними в закрытом чате мафии.",
    "Ночное действие мафии отправляет босс; если он ничего не прислал, засчитывается действие старшего по рангу из живых (тролль, эльф, адвокат, громила).",
    "Если погибает босс, со следующей ночи боссом становится следующий по рангу: тролль, эльф, затем адвокат, затем громила.",
  ],
  en: [
    "You know every member of the mafia and talk with them in the mafia's private chat.",
    "The boss sends the mafia's night action; if the boss sends nothing, the action of the highest-ranked living member counts (troll, elf, lawyer, thug).",
    "When the boss dies, the next in rank becomes boss from the next night: the troll, the elf, then the lawyer, then the thug.",
  ],
};

const BOSS_ACTION: Phrase<readonly string[]> = {
  ru: [
    "Одно действие за ночь на выбор: убить одного или двух игроков, либо убить одного и запугать другого; запугать от одного до трёх игроков (при менее чем {threeIntimidationsFrom} живых — не больше двух); или подкупить Совет — задать ведущему вопрос «да/нет», не касающийся роли или ночного действия конкретного игрока.",
    "Членов мафии убивать и запугивать нельзя. Одних и тех же игроков можно выбирать каждую ночь. Когда живых остаётся {lapseAt}, убить двоих нельзя.",
    "После двойного действия (два убийства или убийство и запугивание) с вероятностью 75% мафия оставляет улики и ник босса раскрывается, а голос босса на следующий день тихо не засчитывается. Так же не засчитывается голос после запугивания половины живых или больше.",
  ],
  en: [
    "One action a night, of your choice: kill one or two players, or kill one and intimidate another; intimidate one to three players (at most two when fewer than {threeIntimidationsFrom} are alive); or bribe the council: ask the GM a yes/no question that does not name a player's role or night action.",
    "Mafia members may not be killed or intimidated. The same players may be chosen every night. With {lapseAt} alive, the mafia may not kill two.",
    "After a double action (two kills, or a kill and an intimidation) the mafia leaves evidence with probability 75% and the boss's nickname is revealed, and the boss's vote the next day is silently not counted. So is the vote after intimidating half of the living or more.",
  ],
};

const join = (...parts: Phrase<readonly string[]>[]): Phrase<readonly string[]> => ({
  ru: parts.flatMap((p) => p.ru),
  en: parts.flatMap((p) => p.en),
});

const lines = (ru: readonly string[], en: readonly string[]): Phrase<readonly string[]> => ({ ru, en });

const VOTE: Phrase<readonly string[]> = {
  ru: [
    "Днём каждый живой игрок обязан голосовать: красным — против игрока, синим — в его защиту. Засчитывается последний голос, голосовать за себя нельзя. Не проголосовавший получает +2 голоса против себя и страйк; второй страйк — модкилл.",
  ],
  en: [
    "Every living player must vote each day: red against a player, blue in their defence. The last vote counts, and nobody may vote for themselves. A player who does not vote gets +2 votes against themselves and a strike; a second strike is a modkill.",
  ],
};

const NIGHT_DUTY: Phrase<readonly string[]> = {
  ru: [
    "Ночное действие (или явный пропуск хода) нужно прислать до дедлайна, иначе — страйк и +2 голоса против вас на следующий день.",
  ],
  en: [
    "Send your night action (or an explicit pass) before the deadline; otherwise you get a strike and +2 votes against you the next day.",
  ],
};

/** Each role's card: the goal, the abilities and their limits, then the duties every player shares. */
/** The cards as written, with S3's thresholds as `{name}` tokens (roleCard puts in the game's numbers). */
const CARDS: { readonly [R in RoleId]: Phrase<readonly string[]> } = {
  boss: join(
    lines(
      ["Вы — босс мафии (1-й ранг). Цель мафии — сравняться числом с остальными живыми, когда маньяк мёртв."],
      [
        "You are the mafia boss (rank 1). The mafia wins when the maniac is dead and the mafia are at least as many as everyone else alive.",
      ],
    ),
    BOSS_ACTION,
    RANKED_MAFIA,
    NIGHT_DUTY,
    VOTE,
  ),
  troll: join(
    lines(
      [
        "Вы — злой тролль, мафия 2-го ранга. Своего ночного действия нет, но вы можете отправить действие мафии, если босс промолчит, и станете боссом после его гибели.",
      ],
      [
        "You are the evil troll, mafia of rank 2. You have no night action of your own, but you may send the mafia's action if the boss stays silent, and you become boss after the boss dies.",
      ],
    ),
    RANKED_MAFIA,
    VOTE,
  ),
  elf: join(
    lines(
      [
        "Вы — злой эльф, мафия 3-го ранга. Своего ночного действия нет, но вы можете отправить действие мафии и станете боссом после гибели босса и тролля.",
      ],
      [
        "You are the evil elf, mafia of rank 3. You have no night action of your own, but you may send the mafia's action, and you become boss after the boss and the troll die.",
      ],
    ),
    RANKED_MAFIA,
    VOTE,
  ),
  lawyer: join(
    lines(
      [
        "Вы — адвокат мафии. Каждую ночь указываете игрока (можно себя, можно одного и того же): если днём его решат казнить, ведущий объявит, что он отмазан, и никто не будет казнён — если только прокурор той же ночью не указал на того же игрока.",
        "Отмаза действует, даже если вас убили этой ночью или вы стали боссом. Став боссом, вы теряете отмазу.",
      ],
      [
        "You are the mafia's lawyer. Each night you name a player (yourself too, the same one every night if you like): if the day's vote would hang them, the GM announces they are excused and nobody is hanged, unless the prosecutor named the same player that night.",
        "The protection holds even if you die that night or become boss. Once you are boss, you lose the protection.",
      ],
    ),
    RANKED_MAFIA,
    NIGHT_DUTY,
    VOTE,
  ),
  thug: join(
    lines(
      [
        "Вы — громила мафии. Каждую ночь блокируете игрока: его ночное действие отменяется, и с вероятностью 50% он лишается голоса на следующий день. Нельзя ходить к одной цели две ночи подряд (кроме ночи, когда живых остаётся {lapseAt}).",
        "Если девочка и громила идут друг к другу, блок громилы сильнее. Если к вашей цели приходит маньяк с кровавым убийством, погибаете и вы.",
        "Став боссом, вы сохраняете блок: каждую ночь — либо действие мафии, либо блок.",
      ],
      [
        "You are the mafia's thug. Each night you block a player: their night action is cancelled, and with probability 50% they lose the vote the next day. You may not visit the same target two nights in a row (except when {lapseAt} are alive).",
        "When the girl and the thug target each other, the thug's block wins. If the maniac's bloody kill hits your target, you die too.",
        "As boss you keep the block: each night either the mafia's action or the block.",
      ],
    ),
    RANKED_MAFIA,
    NIGHT_DUTY,
    VOTE,
  ),
  maniac: join(
    lines(
      [
        "Вы — маньяк и играете сам за себя: вы побеждаете, если в живых останетесь вы и не больше одного игрока.",
        "Одно действие за ночь: кровавое убийство (роль жертвы раскрывается, город узнаёт, что это ваша работа; погибают и девочка, пришедшая к жертве, и громила, блокировавший её); быстрое убийство (без улик); или пытка (жертва два дня лишена голоса, её ход не блокируется; с вероятностью 50% город узнаёт, что это работа маньяка). Сами вы не раскрываетесь.",
      ],
      [
        "You are the maniac and play alone: you win when you are alive with at most one other player.",
        "One action a night: a bloody kill (the victim's role is revealed and the town learns it was you; the girl who visited the victim and the thug who blocked them die too); a quick kill (no evidence); or torture (the victim loses the vote for two days, their night action is not affected; with probability 50% the town learns it was the maniac). You yourself are never exposed.",
      ],
    ),
    NIGHT_DUTY,
    VOTE,
  ),
  sheriff: join(
    lines(
      [
        "Вы — шериф, город. Вы играете в связке с сержантом: вы знаете друг друга и общаетесь в закрытом чате. У связки одно действие за ночь: ваш выстрел или проверка сержанта; засчитывается последнее присланное.",
        "Выстрел убивает игрока. Если сержант погибнет, вы по-прежнему можете только стрелять.",
      ],
      [
        "You are the sheriff, town. You play as a pair with the sergeant: you know each other and share a private chat. The pair has one action a night: your shot or the sergeant's check; the later submission counts.",
        "A shot kills a player. If the sergeant dies, you can still only shoot.",
      ],
    ),
    NIGHT_DUTY,
    VOTE,
  ),
  sergeant: join(
    lines(
      [
        "Вы — сержант, город. Вы играете в связке с шерифом: вы знаете друг друга и общаетесь в закрытом чате. У связки одно действие за ночь: выстрел шерифа или ваша проверка; засчитывается последнее присланное.",
        "Проверка показывает «мафия» или «не мафия» (маньяк — «не мафия»). Если вас заблокируют, проверка не удастся. Если шериф погибнет, у вас останется только проверка.",
      ],
      [
        "You are the sergeant, town. You play as a pair with the sheriff: you know each other and share a private chat. The pair has one action a night: the sheriff's shot or your check; the later submission counts.",
        'A check reads "mafia" or "not mafia" (the maniac reads "not mafia"). If you are blocked, the check fails. If the sheriff dies, you can only check.',
      ],
    ),
    NIGHT_DUTY,
    VOTE,
  ),
  doctor: join(
    lines(
      [
        "Вы — доктор, город. Одно действие за ночь: сыворотка правды (роль игрока объявляется всем; с вероятностью 50% раскрывается ваш ник; при менее чем {serumRepeatBelow} живых — не две ночи подряд); лечение игрока (можно себя; спасает от всех нападений этой ночи; не одного и того же две ночи подряд); лечение от роли — мафии, маньяка или шерифа (все нападения этой роли не срабатывают; только пока живы и мафия, и маньяк и живых больше {revealAbove}; не от одной роли две ночи подряд); или отравление (игрок два дня лишён голоса).",
        "Ваш синий голос считается за три, но вслух об этом не сообщается.",
      ],
      [
        "You are the doctor, town. One action a night: truth serum (the player's role is announced to all; with probability 50% your nickname is exposed; with fewer than {serumRepeatBelow} alive, not two nights in a row); heal a player (yourself too; saves them from every attack that night; not the same player two nights in a row); heal from a role: mafia, maniac or sheriff (every attack of that role fails; only while both mafia and maniac are alive and more than {revealAbove} are; not the same role two nights in a row); or poison (the player loses the vote for two days).",
        "Your blue vote counts three, though nobody is told.",
      ],
    ),
    NIGHT_DUTY,
    VOTE,
  ),
  girl: join(
    lines(
      [
        "Вы — девочка, город. Каждую ночь приходите к игроку: если у него есть ночное действие, все его действия этой ночью отменяются. Приход к рядовому мафиози не останавливает мафию — только приход к боссу. С вероятностью 50% игрок лишается голоса на следующий день.",
        "Визит не защищает: убийцы к нему всё равно придут, а если это кровавое убийство маньяка, погибнете и вы. Нельзя ходить к одному игроку две ночи подряд (кроме ночи, когда живых остаётся {lapseAt}).",
      ],
      [
        "You are the girl, town. Each night you visit a player: if they have a night action, all their actions that night are cancelled. Visiting a lower-ranked mafioso does not stop the mafia; only visiting the boss does. With probability 50% the player loses the vote the next day.",
        "The visit does not protect: killers still come, and if it is the maniac's bloody kill, you die too. You may not visit the same player two nights in a row (except when {lapseAt} are alive).",
      ],
    ),
    NIGHT_DUTY,
    VOTE,
  ),
  prosecutor: join(
    lines(
      [
        "Вы — прокурор, город. Каждую ночь указываете игрока: если адвокат отмазал именно его, отмаза снимается и его можно казнить днём.",
        "Ваш красный голос считается за два.",
      ],
      [
        "You are the prosecutor, town. Each night you name a player: if the lawyer protected that very player, the protection is void and they can be hanged.",
        "Your red vote counts two.",
      ],
    ),
    NIGHT_DUTY,
    VOTE,
  ),
  shahid: join(
    lines(
      [
        "Вы — шахид, город. Каждую ночь отмечаете игрока: если этой ночью на вас нападут (мафия, маньяк или шериф), отмеченный погибнет вместе с вами — даже если доктор спасёт вас. Если вас заблокируют, метка не сработает. Казнь днём метку не запускает.",
        "Нельзя отмечать одного игрока две ночи подряд (кроме ночи, когда живых остаётся {lapseAt}).",
      ],
      [
        "You are the shahid, town. Each night you mark a player: if you are attacked that night (by the mafia, the maniac or the sheriff), the marked player dies with you, even if the doctor saves you. If you are blocked, the mark does nothing. A hanging does not fire it.",
        "You may not mark the same player two nights in a row (except when {lapseAt} are alive).",
      ],
    ),
    NIGHT_DUTY,
    VOTE,
  ),
  citizen: join(
    lines(
      [
        "Вы — мирный житель, город. Ночного действия у вас нет: ваше оружие — обсуждение и голос. Город побеждает, когда не остаётся ни мафии, ни маньяка.",
      ],
      [
        "You are a citizen, town. You have no night action: your weapons are the discussion and your vote. The town wins when neither mafia nor maniac is left.",
      ],
    ),
    VOTE,
  ),
};

const THRESHOLD_TOKEN = /\{(revealAbove|threeIntimidationsFrom|serumRepeatBelow|lapseAt|earlyFromDay)\}/gu;

/**
 * S1, S3: a role's card in a language, with the game's thresholds (a card that says «больше 10» under the
 * defaults says the game's own number).
 */
export function roleCard(role: RoleId, lang: Lang, options: GameOptions): readonly string[] {
  return CARDS[role][lang].map((line) =>
    line.replace(THRESHOLD_TOKEN, (_, name: keyof GameOptions) => String(options[name])),
  );
}
