/**
 * What a user can do about a failure of Redis or BullMQ, in words, by the failure's kind: never the
 * failure's own message, which may hold a connection URL and so a password.
 */
const KINDS: readonly (readonly [RegExp, string])[] = [
  [
    /\bCROSSSLOT\b/,
    'Redis Cluster refused keys of different hash slots: give the queue a hash-tagged prefix, such as "{webhooks}"',
  ],
  [
    /\b(?:MOVED|ASK) \d+\b/,
    'the server is one node of a Redis Cluster: pass an ioredis Cluster (new Cluster(nodes) from "ioredis") and a hash-tagged prefix',
  ],
  [/\bCLUSTERDOWN\b/, "the Redis Cluster is down (CLUSTERDOWN): some hash slots have no master"],
  [
    /\b(?:NOAUTH|WRONGPASS)\b|invalid password|invalid username-password/i,
    "Redis refused the credentials (NOAUTH or WRONGPASS): check the client's username and password",
  ],
  [
    /\bNOPERM\b/,
    "the Redis user may not run a command BullMQ needs (NOPERM): grant it the queue's keys and commands",
  ],
  [/\bREADONLY\b/, "Redis answered READONLY: the client is connected to a replica, not the master"],
  [/\bOOM\b/, "Redis is out of memory (OOM): raise maxmemory, or keep fewer dead deliveries (keepDead)"],
  [/Redis version needs/i, "the Redis server is too old for BullMQ, which needs Redis 5 or later"],
  [
    /could not load the optional 'ioredis'/i,
    'BullMQ could not load "ioredis": pass a Redis client as the connection',
  ],
  [
    /\b(?:ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE)\b|connection is closed|client is closed|socket closed|disconnects client|stream isn't writeable|connection closed/i,
    "Redis could not be reached, or the client is closed: check that Redis is up and that the client is connected",
  ],
];

/** The messages and codes of a failure and of the failures under it (`cause`, `errors`, ioredis's `lastNodeError`). */
function textsOf(failure: unknown, depth = 0): string[] {
  if (typeof failure !== "object" || failure === null || depth > 5) return [];
  const record = failure as {
    message?: unknown;
    code?: unknown;
    cause?: unknown;
    errors?: unknown;
    lastNodeError?: unknown;
  };
  const texts = [record.message, record.code].filter((text): text is string => typeof text === "string");
  const nested = [record.cause, record.lastNodeError, ...(Array.isArray(record.errors) ? record.errors : [])];
  return [...texts, ...nested.flatMap((inner) => textsOf(inner, depth + 1))];
}

/**
 * The message of a queue failure: `what` failed, then what to do about it when its kind is known,
 * or the Redis error code (`WRONGTYPE`, `ERR`) or system error code (`ECONNREFUSED`) alone.
 */
export function describeRedisFailure(what: string, failure: unknown): string {
  const texts = textsOf(failure);
  for (const [pattern, advice] of KINDS) {
    if (texts.some((text) => pattern.test(text))) return `${what}: ${advice}`;
  }
  // A Redis error starts with its code in capitals; a system error carries one in `code`.
  const code = texts
    .map((text) => /^(?:[A-Z][A-Z_]{1,30}|E[A-Z]{2,20})(?=\s|$)/.exec(text)?.[0])
    .find(Boolean);
  return code === undefined
    ? `${what} (its cause is attached)`
    : `${what}: Redis or the client failed with ${code}`;
}
