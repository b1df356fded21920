// The presale countdown's words (content/messages/<locale>/countdown.ts).

/** The countdown's sentence, to the minute: the ticking island says it too, so it is in its chunk. */
export interface CountdownMessages {
  open: string;
  opensIn: (left: { days: number; hours: number; minutes: number }) => string;
}

/** The clock's units and the link once open: server-rendered only, so not in the island's script. */
export interface CountdownLabels {
  units: { days: string; hours: string; minutes: string; seconds: string };
  join: string;
}
