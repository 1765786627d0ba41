import type { Lang } from "@forum-mafia/protocol";
import { createContext, useContext, type ReactNode } from "react";
import type { ApiFailure } from "../api.ts";
import * as common from "./common.ts";
import { ERROR_TEXTS } from "./errors.ts";
import * as game from "./game.ts";
import * as gm from "./gm.ts";
import * as lobby from "./lobby.ts";
import * as play from "./play.ts";

/**
 * The app's words, Russian by default with English switchable. Each area keeps its own dictionary;
 * `t.game.vote` etc. are typed, and English has exactly the Russian keys.
 */
const DICTS = {
  ru: { ...common.ru, lobby: lobby.ru, game: game.ru, play: play.ru, gm: gm.ru },
  en: { ...common.en, lobby: lobby.en, game: game.en, play: play.en, gm: gm.en },
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

/** A refusal in words: the sentence for its code (or the server's message), and its clause. */
export function errorText(e: unknown, lang: Lang): string {
  const t = DICTS[lang];
  if (!(e instanceof Error)) return t.errors.generic(String(e));
  const f = e as Partial<ApiFailure>;
  if (f.code === "network") return t.errors.network;
  const words = f.code ? ERROR_TEXTS[f.code]?.[lang] : undefined;
  // Field errors (code "invalid") name the field; the server's text is the precise one there.
  const text = words ?? t.errors.generic(e.message);
  return f.clause ? `${text} (${t.errors.clause(f.clause)})` : text;
}
