// autocannon ships no types and @types/autocannon is not a dependency: the part of its programmatic API the
// benchmark uses (github.com/mcollina/autocannon#api).
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      connections?: number;
      pipelining?: number;
      /** Requests per second over all connections (paced); unpaced when absent. */
      overallRate?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds without a response before a request counts as a timeout. */
      timeout?: number;
      title?: string;
      /** Requests sent in turn on each connection (a mix); each may set its own method, path, headers and body. */
      requests?: { method?: string; path?: string; headers?: Record<string, string>; body?: string }[];
    }
    /** Percentiles and mean of one histogram; latency in ms, requests per second. */
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
      url: string;
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      mismatches: number;
      '2xx': number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram;
      requests: Histogram & { sent: number };
      throughput: Histogram;
    }
  }
  function autocannon(opts: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
