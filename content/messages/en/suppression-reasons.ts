// Why an address is on the suppression list, in words, by reason code
// (docs/decisions/0035-bounces-complaints-and-suppression.md). English is the console's own
// (src/shared/admin/suppressions.ts, decision 0048), written once there; the other locales' files
// are typed by it.
import { suppressionReasonLabels } from '../../../src/shared/admin/suppressions.ts';

export const suppressionReasonMessages = suppressionReasonLabels;

export type SuppressionReasonMessages = typeof suppressionReasonMessages;
