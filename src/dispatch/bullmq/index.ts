export type { BullMQDeliveryQueueOptions } from "./BullMQDeliveryQueueOptions.js";
export { createBullMQDeliveryQueue } from "./createBullMQDeliveryQueue.js";
