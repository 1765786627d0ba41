/** The part of autocannon 9's programmatic API the load generator uses (the package ships no types). */
declare module "autocannon" {
  namespace autocannon {
    interface Request {
      method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }
    type Context = Record<string, unknown>;
    interface RequestSpec extends Request {
      /** Called before each request of a connection; returns the request to send. */
      setupRequest?: (request: Request, context: Context) => Request;
      /** Called with each response, before the connection sends its next request. */
      onResponse?: (status: number, body: string, context: Context, headers: Record<string, string>) => void;
    }
    interface Options {
      url: string;
      connections?: number;
      pipelining?: number;
      /** Seconds. */
      duration?: number;
      timeout?: number;
      requests?: RequestSpec[];
      /** Requests per second across all connections; as fast as possible without. */
      overallRate?: number;
    }
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      "2xx": number;
      statusCodeStats: Record<string, { count: number }>;
    }
    /** The running benchmark: an event emitter that is also a promise of the result. */
    interface Instance extends PromiseLike<Result> {
      /** Each response, with its time in milliseconds from the request's write (sub-millisecond precision). */
      on(
        event: "response",
        listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
      ): Instance;
    }
  }
  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
