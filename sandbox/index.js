'use strict';

const { createSandbox } = require('./server');
const { TOKENS } = require('./state');

module.exports = { createSandbox, TOKENS };
