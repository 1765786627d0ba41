import type { ForumEngine } from "../src/index.ts";
export declare const PAGES: string;
export interface ExpectedPage {
    readonly reader: ForumEngine;
    readonly emoji: string;
    readonly players: string;
    readonly gm: string;
    readonly day: number;
    readonly posts: number;
    readonly authors: readonly string[];
    readonly first: string;
    readonly last: string;
    readonly count: string;
    readonly votes: readonly unknown[];
}
export interface FixturePage {
    readonly name: string;
    /** A whole saved page (with its meta charset), not a clipboard fragment. */
    readonly whole: boolean;
    readonly expected: ExpectedPage;
}
/** Every fixture page with its expected reading, by name. */
export declare const FIXTURE_PAGES: readonly FixturePage[];
export declare const pageHtml: (name: string) => string;
