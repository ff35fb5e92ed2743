import { get } from './api.js';

// The latest milestones as they come (issue 47): TIP-28's `milestone-info/latest` over the node's event API (MQTT over
// WebSocket at /api/mqtt/v1, with the browser build of mqtt, loaded only when a page asks for it). One connection a
// page load, kept across pages; each page that listens says so while it is shown.

export interface MilestoneInfo {
  index: number;
  timestamp: number;
  milestoneId: string;
}

const listeners = new Set<(m: MilestoneInfo) => void>();
let connected: Promise<void> | undefined;

/** Connects where the node has an event API (its /api/routes names mqtt/v1); a node without one: the list stays. */
function connect(): Promise<void> {
  connected ??= get<{ routes: string[] }>('/api/routes').then(
    async ({ routes }) => {
      if (!routes.includes('mqtt/v1')) return;
      const { default: mqtt } = await import('mqtt');
      const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
      const client = mqtt.connect(`${scheme}://${location.host}/api/mqtt/v1`, { reconnectPeriod: 2_000 });
      client.on('connect', () => client.subscribe('milestone-info/latest'));
      client.on('message', (_topic, payload) => {
        const m = JSON.parse(new TextDecoder().decode(payload)) as MilestoneInfo;
        for (const listen of listeners) listen(m);
      });
      client.on('error', () => {}); // it reconnects; the page shows what it has
    },
    () => {},
  );
  return connected;
}

/** Calls `listen` with each new milestone until the returned function is called. */
export function onMilestone(listen: (m: MilestoneInfo) => void): () => void {
  listeners.add(listen);
  void connect();
  return () => listeners.delete(listen);
}
