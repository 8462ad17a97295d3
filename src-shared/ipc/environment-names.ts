import type { EnvironmentId } from './contract';

/** How the desk and its windows name each environment to the trader (a module of its own: windows load no zod for it). */
export const ENVIRONMENT_NAMES: Readonly<Record<EnvironmentId, string>> = { local: 'Local', development: 'Development', production: 'Production' };

/**
 * How a message read away from the desk's red frame names its environment (a notification, a question):
 * Production as every Production question says it, so a fill or a question there is never taken for Local's.
 */
export function environmentLabel(environment: EnvironmentId): string {
  return environment === 'production' ? 'PRODUCTION (real money)' : ENVIRONMENT_NAMES[environment];
}
