import type { SeedStep } from './index.js';
import { lectureSeedSteps } from './lecture.js';
import { seedBaseDicts } from './dicts-base.js';
import { seedDisplayDicts, seedDomainDicts } from './dicts-domain.js';
import { seedJeecgDicts } from './dicts-jeecg.js';
import { seedPositions } from './positions.js';
import { menuSeedStep } from './menus.js';
import { seedAdmin, seedDemoOrg } from './org.js';
import { systemServiceSeeds } from '../sys/message-seed.js';
import { seedDemoCustomers, seedDemoDicts } from './demo.js';
import { adminConfigSeeds } from '../sys/config-seed.js';
import { auditSeedSteps } from './audit.js';
import { labSeedSteps } from './lab.js';
import { workflowSeedSteps } from '../workflow/seed.js';

/** Every seed step in order: base data (dictionaries, menus) first, then the demo university. */
export const seedSteps: SeedStep[] = [
  { name: 'dicts-base', run: seedBaseDicts },
  { name: 'dicts-domain', run: seedDomainDicts },
  { name: 'dicts-jeecg', run: seedJeecgDicts },
  { name: 'positions', run: seedPositions },
  menuSeedStep(),
  { name: 'admin-user', run: seedAdmin },
  { name: 'demo-org', demo: true, run: seedDemoOrg },
  ...systemServiceSeeds,
  { name: 'demo-dicts', run: seedDemoDicts },
  { name: 'demo-customers', demo: true, run: seedDemoCustomers },
  ...lectureSeedSteps,
];
// Configuration screens of issue 5 (check/fill rules, data sources, gateway routes, data log).
seedSteps.push(...adminConfigSeeds);
// 审核评估: its dictionaries and index system, then demo items and workgroups.
seedSteps.push(...auditSeedSteps);
// 实验室管理: its dictionaries, then demo labs, services, contracts, plans, orders, bookings and use records.
seedSteps.push(...labSeedSteps);
// Display texts of the schema screens of issue 26 (a timeline's actions, a job run's trigger).
seedSteps.push({ name: 'dicts-display', run: seedDisplayDicts });
// 审批流程: its dictionaries, the finance role and the three seeded processes (deployed).
seedSteps.push(...workflowSeedSteps);
