/** Whether `version` (as process.versions.node gives it) is one this product runs on. */
export function supportedNode(version: string): boolean;
/** What to do about an unsupported Node, in words. */
export const nodeAdvice: string;
