'use strict';
// Simulates several n8n processes on one token in virtual time (see pacingSimulation.bench.ts):
//   node bench/pacingSimulation.js
// SIM_SEEDS (20) and SIM_POLICY (JSON overriding the area's pacing constants) change it.

require('./runTypeScript').runMain('pacingSimulation.bench.ts');
