import { z } from 'zod';
import { type ConfigArea, optional, type SettingsOf } from './config-variable.js';

/** What kind of deployment this is. */
export const DEPLOYMENT_AREA = {
  title: 'Deployment',
  about: 'What kind of deployment this is',
  variables: {
    NODE_ENV: optional(
      z.string(),
      '`production`: the deployment is live even with every chain embedded, so it must pass the [going-live checks](operators.md#going-live)',
    ),
  },
} as const satisfies ConfigArea;

export interface DeploymentConfig {
  /** NODE_ENV=production. */
  production: boolean;
}

export function deploymentConfig(e: SettingsOf<typeof DEPLOYMENT_AREA.variables>): DeploymentConfig {
  return { production: e.NODE_ENV === 'production' };
}
