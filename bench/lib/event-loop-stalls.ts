// The headline server child's event-loop figures (headline-server-child.ts answers them).
import { httpRequest } from './http.ts';

/** A POST (so no cache or GET hook sees it); `?reset` starts the next window after answering. */
export const EVENT_LOOP_PATH = '/__bench/event-loop';

export interface LoopStalls {
  /** The longest a 1 ms timer was late in the window (ms): the worst stall. */
  maxMs: number;
  p999Ms: number;
  p99Ms: number;
}

/** The window's stalls so far, and a new window from now. */
export async function readStalls(origin: string): Promise<LoopStalls> {
  const res = await httpRequest(`${origin}${EVENT_LOOP_PATH}?reset`, { method: 'POST' });
  if (res.status !== 200) throw new Error(`the event-loop figures answered ${res.status}`);
  return JSON.parse(res.body.toString('utf8')) as LoopStalls;
}
