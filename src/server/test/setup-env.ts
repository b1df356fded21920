import { randomBytes } from 'node:crypto';

// Every test file gets a data key of its own (stored secrets are encrypted under it; see
// store/data-keys.ts), in the environment so that the stores a test migrates, the apps it builds
// and the processes it starts (which inherit the environment) all use the same one.
process.env.DATA_KEY ??= randomBytes(32).toString('base64');
