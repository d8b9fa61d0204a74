#!/usr/bin/env node
// Entry point for the installed `ehr-gym` command: runs the TypeScript CLI through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./ehr-gym.ts');
