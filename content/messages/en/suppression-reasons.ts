// Why an address is on the suppression list, in words, by reason code
// (docs/decisions/0035-bounces-complaints-and-suppression.md). English is the console's own
// (src/shared/admin/suppressions.ts, decision 0048), written once there. Every locale's file is
// typed by src/shared/messages/suppression-reasons.ts.
import type { SuppressionReasonMessages } from '../../../src/shared/messages/suppression-reasons.ts';
import { suppressionReasonLabels } from '../../../src/shared/admin/suppressions.ts';

export const suppressionReasonMessages: SuppressionReasonMessages = suppressionReasonLabels;
