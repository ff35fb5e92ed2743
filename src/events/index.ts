// TIP-28's event API: the MQTT broker (or an external one), its sessions and the feed of each commit. A new topic:
// declared in topics.ts, published from slot-events.ts, its names exported below.
