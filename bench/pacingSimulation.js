'use strict';
// Simulates several n8n processes on one token in virtual time (see pacingSimulation.ts):
//   node bench/pacingSimulation.js
// SIM_SEEDS, SIM_AREAS (data,communicate), SIM_PROCESSES (2,4), SIM_DATA_REQUESTS,
// SIM_SEND_REQUESTS and SIM_POLICY (JSON overriding the area's pacing constants) change it.

require('./runTypeScript').runMain('pacingSimulation.ts');
