'use strict';
// `node bench/targeted.js`: the targeted-read check (targeted.bench.ts), through n8n's real engine.
require('./runTypeScript').runTypeScript('targeted.bench.ts');
