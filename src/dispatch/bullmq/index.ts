export type { BullMQDeliveryQueueOptions, BullMQRedisClient } from "./BullMQDeliveryQueueOptions.js";
export { createBullMQDeliveryQueue } from "./createBullMQDeliveryQueue.js";
