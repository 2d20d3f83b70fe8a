'use strict';

const { createSandbox } = require('./server');
const { TOKENS } = require('./state');
const { READINGS, readingsOf, setReadings } = require('./dataSources/readings');

module.exports = { createSandbox, TOKENS, READINGS, readingsOf, setReadings };
