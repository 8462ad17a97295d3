import type { EnvironmentId } from './contract';

/** How the desk and its windows name each environment to the trader (a module of its own: windows load no zod for it). */
export const ENVIRONMENT_NAMES: Readonly<Record<EnvironmentId, string>> = { local: 'Local', development: 'Development', production: 'Production' };
