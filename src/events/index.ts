// TIP-28's event API: the MQTT broker (or an external one), its sessions and the feed of each commit. A new topic:
// declared in topics.ts, published from slot-events.ts, its names exported below.
export { EventBroker, type EventBrokerOptions } from './broker.js';
export { MQTT_URL } from './external.js';
export { type EventsOptions, type EventsService, startEvents } from './service.js';
export { type EventMessage, slotEvents } from './slot-events.js';
