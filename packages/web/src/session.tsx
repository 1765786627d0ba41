import type { Lang, UserView } from "@forum-mafia/protocol";
import { createContext, useContext } from "react";

/** The logged-in user (null for a guest) and the way to change it. */
export interface Session {
  readonly user: UserView | null;
  readonly setUser: (u: UserView | null) => void;
  /** The viewer's time zone: the account's, else the browser's. */
  readonly timeZone: string;
  readonly lang: Lang;
}

export const SessionContext = createContext<Session>({
  user: null,
  setUser: () => undefined,
  timeZone: "Europe/Moscow",
  lang: "ru",
});
export const useSession = () => useContext(SessionContext);
