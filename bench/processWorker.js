'use strict';
// One n8n process of the cross-process benchmark (bench/processes.js starts it; see processWorker.ts).

require('./runTypeScript').runTypeScript('processWorker.ts');
