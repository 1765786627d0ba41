/**
 * Issue 17: a game's setup (S3) — its role list and its options — and the presets the setup editor
 * offers. Plain data with no zod, so the web app can import it (`@forum-mafia/protocol/setups`) without
 * bundling the request schemas. The rule facts themselves (the roles, the options and their defaults, the
 * S3 check of a role list) live once, in @forum-mafia/rules, and are re-exported here.
 */
import { DEFAULT_OPTIONS, DEFAULT_ROLES, type GameOptions, type RoleId } from "@forum-mafia/rules";

export {
  DEFAULT_OPTIONS,
  OPTION_VALUES,
  THRESHOLDS,
  roleListFault,
  type GameOptions,
  type RoleListFault,
  type ThresholdName,
} from "@forum-mafia/rules";

/** S3: a game's setup, as the GM builds it and as it is published with the game. */
export interface Setup {
  /** The role list, one role per seat: the player count is its length. */
  readonly roles: readonly RoleId[];
  readonly options: GameOptions;
}

/** The most players a setup may have here (S3 sets no limit; the signup list and the estimate do). */
export const MAX_SEATS = 40;
/** The largest value a threshold may take here: above it, a threshold means nothing in a game of ≤ 40. */
export const MAX_THRESHOLD = 99;

export type PresetId = "classic17" | "small9" | "medium12" | "large21";

/** A preset of the setup editor: a role list and options, with a name and a one-paragraph description. */
export interface SetupPreset {
  readonly id: PresetId;
  readonly setup: Setup;
  readonly name: { readonly ru: string; readonly en: string };
  readonly description: { readonly ru: string; readonly en: string };
}

const citizens = (n: number): RoleId[] => Array.from({ length: n }, (): RoleId => "citizen");

/**
 * The presets. The classic 17 is RULES.md §1 with the default thresholds. The others are this project's
 * own (docs/readings.md, "S3 presets"): each keeps the sides in about the classic's proportions and
 * scales the thresholds that count living players, so a role is still revealed in the first half of
 * the game and the repeat limits still lapse at the end.
 */
export const SETUP_PRESETS: readonly SetupPreset[] = [
  {
    id: "classic17",
    setup: { roles: DEFAULT_ROLES, options: DEFAULT_OPTIONS },
    name: { ru: "Классика, 17 игроков", en: "Classic, 17 players" },
    description: {
      ru: "Все роли правил и пять мирных. Роли вскрываются, пока живых больше 10.",
      en: "Every role of the rules and five citizens. Roles are revealed while more than 10 are alive.",
    },
  },
  {
    id: "small9",
    setup: {
      roles: ["boss", "thug", "maniac", "sheriff", "doctor", ...citizens(4)],
      options: {
        ...DEFAULT_OPTIONS,
        revealAbove: 6,
        threeIntimidationsFrom: 9,
        serumRepeatBelow: 8,
        earlyFromDay: 2,
      },
    },
    name: { ru: "Малая, 9 игроков", en: "Small, 9 players" },
    description: {
      ru: "Босс и громила против шерифа и доктора, маньяк сам за себя. Роли вскрываются, пока живых больше 6; досрочно — со 2-го дня.",
      en: "The boss and the thug against the sheriff and the doctor; the maniac plays alone. Roles are revealed while more than 6 are alive; early votes from day 2.",
    },
  },
  {
    id: "medium12",
    setup: {
      roles: ["boss", "troll", "lawyer", "maniac", "sheriff", "sergeant", "doctor", "girl", ...citizens(4)],
      options: { ...DEFAULT_OPTIONS, revealAbove: 7, threeIntimidationsFrom: 11, serumRepeatBelow: 10 },
    },
    name: { ru: "Средняя, 12 игроков", en: "Medium, 12 players" },
    description: {
      ru: "Босс, тролль и адвокат, маньяк, шериф с сержантом, доктор и девочка. Роли вскрываются, пока живых больше 7.",
      en: "The boss, the troll and the lawyer, the maniac, the sheriff and the sergeant, the doctor and the girl. Roles are revealed while more than 7 are alive.",
    },
  },
  {
    id: "large21",
    setup: {
      roles: [...DEFAULT_ROLES, ...citizens(4)],
      options: { ...DEFAULT_OPTIONS, revealAbove: 13, threeIntimidationsFrom: 13, serumRepeatBelow: 18 },
    },
    name: { ru: "Большая, 21 игрок", en: "Large, 21 players" },
    description: {
      ru: "Классика и ещё четыре мирных: городу легче, оценка покажет насколько. Роли вскрываются, пока живых больше 13.",
      en: "The classic and four more citizens: easier for the town, and the estimate shows by how much. Roles are revealed while more than 13 are alive.",
    },
  },
];

/** The classic setup (RULES.md §1, the default thresholds). */
export const CLASSIC_SETUP: Setup = SETUP_PRESETS[0]!.setup;

/** One win rate with its 95% Wilson interval, as shares of 1. */
export interface RateView {
  readonly rate: number;
  readonly low: number;
  readonly high: number;
}

/** The balance of a setup, from bot games of exactly that setup (POST /api/setups/estimate). */
export interface BalanceEstimate {
  /** How many bot games were played (at least 2,000), the stalled ones included. */
  readonly games: number;
  /** Each side's wins as a share of ALL games, stalled ones included: with `stalled` they add up to 1. */
  readonly winRates: {
    readonly town: RateView;
    readonly mafia: RateView;
    readonly maniac: RateView;
    readonly draw: RateView;
  };
  /**
   * Issue 28: the share of games that did not end within `phaseCap` phases (no death and no hanging, night
   * after night: a loop the setup allows), with its 95% interval, over all games.
   */
  readonly stalled: RateView;
  /** The phase cap of a bot game (200: 100 nights and 100 days). */
  readonly phaseCap: number;
  /** Mean length of the games that ended: days, and phases (nights and days). */
  readonly meanDays: number;
  readonly meanPhases: number;
}

/** A setup the GM saved under a name (GET /api/me/setups). */
export interface SavedSetup {
  readonly id: string;
  readonly name: string;
  readonly setup: Setup;
}

/** GET /api/me/setups?lang=: the GM's saved setups, and the role names the setup editor shows. */
export interface MySetups {
  readonly setups: readonly SavedSetup[];
  /** The role names in `?lang=` or the user's language, worded as GameDetail.roleNames words them. */
  readonly roleNames: Readonly<Record<RoleId, string>>;
}
