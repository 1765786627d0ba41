import type { Lang } from "@forum-mafia/protocol";
import { createContext, useContext, type ReactNode } from "react";
import type { ApiFailure } from "../api.ts";
import * as common from "./common.ts";
import * as council from "./council.ts";
import { refusalWords } from "./errors.ts";
import * as game from "./game.ts";
import * as gm from "./gm.ts";
import * as lobby from "./lobby.ts";
import * as me from "./me.ts";
import * as play from "./play.ts";
import * as profile from "./profile.ts";

/**
 * The app's words, Russian by default with English switchable. Each area keeps its own dictionary;
 * `t.game.vote` etc. are typed, and English has exactly the Russian keys.
 */
/** Issue 18: the header's link to the notebooks (the notebook's own words load with it: notebook.ts). */
const NOTEBOOK_NAV: { readonly [L in Lang]: { readonly notebooks: string } } = {
  ru: { notebooks: "Блокноты" },
  en: { notebooks: "Notebooks" },
};

const DICTS = {
  ru: {
    ...common.ru,
    nav: { ...common.ru.nav, ...NOTEBOOK_NAV.ru },
    lobby: lobby.ru,
    game: game.ru,
    play: play.ru,
    gm: gm.ru,
    me: me.ru,
    profile: profile.ru,
    council: council.ru,
  },
  en: {
    ...common.en,
    nav: { ...common.en.nav, ...NOTEBOOK_NAV.en },
    lobby: lobby.en,
    game: game.en,
    play: play.en,
    gm: gm.en,
    me: me.en,
    profile: profile.en,
    council: council.en,
  },
} as const;
export type Dict = (typeof DICTS)["ru"];

const LangContext = createContext<{ lang: Lang; setLang: (l: Lang) => void }>({
  lang: "ru",
  setLang: () => undefined,
});

export function LangProvider(props: { lang: Lang; setLang: (l: Lang) => void; children: ReactNode }) {
  return (
    <LangContext.Provider value={{ lang: props.lang, setLang: props.setLang }}>
      {props.children}
    </LangContext.Provider>
  );
}

export const useLang = () => useContext(LangContext);
export const useT = (): Dict => DICTS[useContext(LangContext).lang];
export const dictFor = (lang: Lang): Dict => DICTS[lang];

/**
 * A refusal in words: the sentence for its code (a malformed input's by the field it names). The server's
 * own message is English and technical and its clause id means nothing to a player, so neither is shown:
 * the sentence says the rule itself.
 */
export function errorText(e: unknown, lang: Lang): string {
  const t = DICTS[lang];
  if (!(e instanceof Error)) return t.errors.unknown;
  const f = e as Partial<ApiFailure>;
  if (f.code === "network") return t.errors.network;
  return (f.code ? refusalWords(f.code, e.message, lang) : null) ?? t.errors.unknown;
}
