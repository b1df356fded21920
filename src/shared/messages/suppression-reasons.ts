// Why an address is on the suppression list, in words, by reason code
// (content/messages/<locale>/suppression-reasons.ts; English's are the console's own,
// src/shared/admin/suppressions.ts). docs/decisions/0035-bounces-complaints-and-suppression.md
import type { suppressionReasonLabels } from '../admin/suppressions.ts';

export type SuppressionReasonMessages = Record<keyof typeof suppressionReasonLabels, string>;
