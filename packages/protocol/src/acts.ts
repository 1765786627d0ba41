/**
 * Issue 18: the night acts' names in the two languages, as the GM's console shows them (the web's i18n)
 * and as the notebook's posts write them (the server). Plain data with no zod, so the web app imports it
 * (`@forum-mafia/protocol/acts`) without bundling the request schemas. The mafia's move and the council's
 * question are worded apart on each side, so they are not here.
 */

/** An act's name: `kill` and `intimidate` are the mafia's two parts, the rest the roles' own acts. */
export interface ActNames {
  readonly kill: string;
  readonly intimidate: string;
  readonly protect: string;
  readonly block: string;
  readonly bloodyKill: string;
  readonly quickKill: string;
  readonly torture: string;
  readonly shoot: string;
  readonly check: string;
  readonly serum: string;
  readonly heal: string;
  readonly healFrom: string;
  readonly poison: string;
  readonly visit: string;
  readonly unprotect: string;
  readonly mark: string;
  readonly pass: string;
}

export const ACT_NAMES: { readonly ru: ActNames; readonly en: ActNames } = {
  ru: {
    kill: "убить",
    intimidate: "запугать",
    protect: "отмазать",
    block: "блок",
    bloodyKill: "кровавое убийство",
    quickKill: "быстрое убийство",
    torture: "пытки",
    shoot: "выстрел",
    check: "проверка",
    serum: "сыворотка правды",
    heal: "лечение",
    healFrom: "лечение от роли",
    poison: "отравление",
    visit: "визит",
    unprotect: "снятие защиты",
    mark: "метка",
    pass: "пропуск хода",
  },
  en: {
    kill: "kill",
    intimidate: "intimidate",
    protect: "protect",
    block: "block",
    bloodyKill: "bloody kill",
    quickKill: "quick kill",
    torture: "torture",
    shoot: "shot",
    check: "check",
    serum: "truth serum",
    heal: "heal",
    healFrom: "heal from a role",
    poison: "poison",
    visit: "visit",
    unprotect: "unprotect",
    mark: "mark",
    pass: "pass",
  },
};
