export { type BullMQDeliveryQueueOptions, createBullMQDeliveryQueue } from "./createBullMQDeliveryQueue.js";
