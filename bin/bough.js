#!/usr/bin/env node
// The installed command: runs the compiled CLI (built by `npm ci` through the prepare script).
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv.slice(2));
