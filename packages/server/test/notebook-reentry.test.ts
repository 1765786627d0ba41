import type { NotebookView, RoleId } from "@forum-mafia/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer, type TestServer } from "./harness.ts";
import { expectOk } from "./play.ts";

/**
 * Issue 29, item 2: F2 for every slot a night action fills (REPLAY.md's slots: a player's own action, each
 * mafioso's mafia action, the sheriff/sergeant pair's one action). Entering an action into an empty slot
 * is the GM writing down a PM; entering another into a slot already filled replaces what was entered,
 * which is a correction (F2): refused without a reason, kept in the log with it. The expected outcomes
 * come from RULES.md (M4: each mafioso may send the mafia's action, so each has a slot; T1: the pair has
 * one action, the later submission replacing the earlier), not from the code.
 */

type Err = { error: { code: string; message: string; clause?: string } };

/** The standard table (RULES.md §1) dealt by hand, seat by seat. */
const TABLE: [string, RoleId][] = [
  ["Аня", "boss"],
  ["Борис", "troll"],
  ["Вера", "elf"],
  ["Глеб", "lawyer"],
  ["Даша", "thug"],
  ["Егор", "maniac"],
  ["Жанна", "sheriff"],
  ["Зоя", "sergeant"],
  ["Игорь", "doctor"],
  ["Катя", "girl"],
  ["Лёша", "prosecutor"],
  ["Маша", "shahid"],
  ["Нина", "citizen"],
  ["Олег", "citizen"],
  ["Петя", "citizen"],
  ["Рита", "citizen"],
  ["Семён", "citizen"],
];
const S = Object.fromEntries(TABLE.map(([n], i) => [n, i])) as Record<string, number>;

describe("issue 29: F2, re-entering any night slot in the notebook needs a reason", () => {
  let t: TestServer;
  let gm: Client;

  beforeAll(async () => {
    t = await testServer();
    gm = new Client(() => t.server.app, "Ведущая");
    expectOk(await gm.register());
  }, 120_000);
  afterAll(() => t.close());

  /** A fresh notebook on night 1 of a hand deal (S3). */
  const notebook = async (): Promise<string> => {
    const r = await gm.post<NotebookView>("/api/notebooks", {
      title: "Повторный ввод",
      players: TABLE.map(([n]) => n),
      roles: TABLE.map(([, r]) => r),
      deal: { kind: "hand", roles: TABLE.map(([, r]) => r) },
    });
    expect(r.status, r.raw).toBe(201);
    return r.body.id;
  };
  const enter = (id: string, seat: string, action: Record<string, unknown>, reason?: string) =>
    gm.post<NotebookView & Err>(`/api/notebooks/${id}/actions`, {
      seat: S[seat],
      action,
      ...(reason ? { reason } : {}),
    });
  /** Entered without a reason and accepted: the slot was empty, nothing was corrected. */
  const fills = async (id: string, seat: string, action: Record<string, unknown>): Promise<NotebookView> => {
    const r = await enter(id, seat, action);
    expect(r.status, r.raw).toBe(200);
    return r.body;
  };
  /** Entered without a reason into a filled slot: a 400 naming the field and F2, and nothing changed. */
  const refused = async (id: string, seat: string, action: Record<string, unknown>): Promise<void> => {
    const before = (await gm.get<NotebookView>(`/api/notebooks/${id}`)).body;
    const r = await enter(id, seat, action);
    expect(r.status, r.raw).toBe(400);
    expect(r.body.error.code).toBe("reason");
    expect(r.body.error.clause).toBe("F2");
    expect(r.body.error.message).toContain("reason");
    const after = (await gm.get<NotebookView>(`/api/notebooks/${id}`)).body;
    expect(after.inputs).toEqual(before.inputs);
    expect(after.corrections).toEqual(before.corrections);
  };

  it("F2: a player's own slot (the doctor's heal): the second heal needs a reason, and is logged with it", async () => {
    const id = await notebook();
    let v = await fills(id, "Игорь", { act: "heal", target: S["Семён"] });
    expect(v.corrections).toEqual([]);
    // Another player's own slot is empty: no reason needed.
    v = await fills(id, "Катя", { act: "visit", target: S["Рита"] });
    expect(v.corrections).toEqual([]);
    await refused(id, "Игорь", { act: "heal", target: S["Рита"] });
    // A pass replaces the heal as well.
    await refused(id, "Игорь", { act: "pass" });
    const r = await enter(id, "Игорь", { act: "heal", target: S["Рита"] }, "доктор переписал в личке");
    expect(r.status, r.raw).toBe(200);
    expect(r.body.corrections).toHaveLength(1);
    expect(r.body.corrections[0]!.kind).toBe("action");
    expect(r.body.corrections[0]!.reason).toBe("доктор переписал в личке");
    expect(r.body.corrections[0]!.detail).toContain("Рита");
    expect(r.body.inputs.map((i) => i.seat)).toEqual([S["Игорь"], S["Катя"], S["Игорь"]]);
  });

  it("F2, M4: the mafia's slot of each mafioso: the boss's second kill needs a reason; the troll's first does not", async () => {
    const id = await notebook();
    await fills(id, "Аня", { act: "mafia", kill: [S["Нина"]] });
    await refused(id, "Аня", { act: "mafia", kill: [S["Олег"]] });
    // M4: another mafioso may send the mafia's action too; it fills that mafioso's own mafia slot.
    let v = await fills(id, "Борис", { act: "mafia", kill: [S["Петя"]] });
    expect(v.corrections).toEqual([]);
    await refused(id, "Борис", { act: "mafia", kill: [S["Олег"]] });
    v = (await enter(id, "Аня", { act: "mafia", kill: [S["Олег"]] }, "босс уточнил цель")).body;
    expect(v.corrections.map((c) => [c.kind, c.reason])).toEqual([["action", "босс уточнил цель"]]);
  });

  it("F2, T1: the pair's one slot: the sergeant's check after the sheriff's shot needs a reason", async () => {
    const id = await notebook();
    await fills(id, "Жанна", { act: "shoot", target: S["Вера"] });
    // T1: the later submission of the two replaces the earlier: the partner writes over the same slot.
    await refused(id, "Зоя", { act: "check", target: S["Аня"] });
    const r = await enter(id, "Зоя", { act: "check", target: S["Аня"] }, "сержант написал позже");
    expect(r.status, r.raw).toBe(200);
    expect(r.body.corrections.map((c) => c.reason)).toEqual(["сержант написал позже"]);
  });
});
