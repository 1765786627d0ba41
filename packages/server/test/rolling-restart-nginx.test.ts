import { rollingRestart } from "./rolling-suite.ts";

/** Issue 28: a rolling restart of three instances behind nginx (rolling-suite.ts). */
rollingRestart("nginx");
