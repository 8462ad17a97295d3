/**
 * The bridge's method names and IPC channel, apart from their schemas: a sandboxed preload can load nothing but
 * its own bundle and electron, so it must not pull in the schema library. contract.ts holds the schemas and a
 * test checks that both list the same methods.
 */
export const IPC_CHANNEL = 'nova:call';

export const METHOD_NAMES = ['venue.status'] as const;
export type MethodName = (typeof METHOD_NAMES)[number];
