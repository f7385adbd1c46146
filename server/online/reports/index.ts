import type { ReportDef } from './types.js';
import { usersByDepart } from './users-by-depart.js';
import { demoCustomerStats } from './demo-customer-stats.js';

const registry = new Map<string, ReportDef>();

/** Registers an online report (domain modules may add theirs at registration time). */
export function registerReport(def: ReportDef): void {
  registry.set(def.code, def);
}

export function reportOf(code: string): ReportDef | undefined {
  return registry.get(code);
}

export function allReports(): ReportDef[] {
  return [...registry.values()];
}

registerReport(usersByDepart);
registerReport(demoCustomerStats);
