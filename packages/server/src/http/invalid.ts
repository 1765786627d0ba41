import type { z } from "zod";

/**
 * A refused body's message: the field's path and zod's message, e.g. `night.amount: Too small: expected
 * number to be >=1`, or the unknown fields named. Shared by the edge's check on the event loop
 * (routes/context.ts) and the one in the tools' worker threads (tools-body.ts), so both word it alike.
 */
export function invalidMessage(where: string, error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.length ? issue.path.join(".") : where;
  return issue.code === "unrecognized_keys"
    ? `${issue.path.length ? path + ": " : ""}unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`
    : `${path}: ${issue.message}`;
}
