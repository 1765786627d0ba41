import type { FastifyInstance } from "fastify";

export interface Reply<T = unknown> {
  readonly status: number;
  readonly body: T;
  readonly raw: string;
}

/** A user of the API through Fastify's inject: keeps its session cookie like a browser would. */
export class Client {
  cookie: string | null = null;
  /** Every response body this client received, as text (the leak tests scan them). */
  readonly seen: string[] = [];

  constructor(
    private readonly app: () => FastifyInstance,
    readonly nick = "",
  ) {}

  async req<T = Record<string, unknown>>(
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    body?: unknown,
  ): Promise<Reply<T>> {
    const res = await this.app().inject({
      method,
      url,
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    const set = res.headers["set-cookie"];
    const first = Array.isArray(set) ? set[0] : set;
    if (first) {
      const pair = first.split(";")[0]!;
      this.cookie = pair.endsWith("=") ? null : pair;
    }
    this.seen.push(res.body);
    let parsed: unknown = null;
    try {
      parsed = res.body ? JSON.parse(res.body) : null;
    } catch {
      parsed = res.body;
    }
    return { status: res.statusCode, body: parsed as T, raw: res.body };
  }

  get = <T = Record<string, unknown>>(url: string): Promise<Reply<T>> => this.req<T>("GET", url);
  post = <T = Record<string, unknown>>(url: string, body?: unknown): Promise<Reply<T>> =>
    this.req<T>("POST", url, body);

  /** Register (or log in) and keep the session. */
  async register(nick = this.nick, password = "correct horse battery"): Promise<Reply> {
    return this.post("/api/register", { nick, password });
  }
}
