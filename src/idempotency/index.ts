export { echoesIdempotencyKey } from "./echoesIdempotencyKey.js";
export {
  createIdempotencyKey,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_META,
  IdempotencyKeyError,
  isHeaderSafeIdempotencyKey,
  isValidIdempotencyKey,
} from "./idempotencyKey.js";
export { type IdempotencyKeyResult, readIdempotencyKey } from "./readIdempotencyKey.js";
export { withIdempotencyKey } from "./withIdempotencyKey.js";
