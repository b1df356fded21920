// Days are UTC calendar days written YYYY-MM-DD: they sort as text and are what the roll-ups,
// salts and reports key on.

export const dayOf = (d: Date): string => d.toISOString().slice(0, 10);

export const addDays = (day: string, n: number): string =>
  dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000));
